import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodeFunctionData, getAddress, parseEther } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { LAUNCH_FEE } from '../../src/devnet/deploy.ts'
import { seededExplorer, send, waitFor, type SeededExplorer } from './helpers.ts'

// /api/search end to end on the seeded dev chain: the registry's tokens and tags, launched
// tokens, `.bx` names, pairs and pools, hashes, numbers and addresses; the registry's entries
// before the chain's, a launched copy of a listed symbol marked and ranked after; hostile queries.

type Result = { kind: string; title: string; detail: string | null; address: string | null; href: string; listed: boolean | null }
type Answer = { query: string; go: string | null; results: Result[] }

let seeded: SeededExplorer
let c: SeededExplorer['manifest']['contracts']

beforeAll(async () => {
  seeded = await seededExplorer()
  c = seeded.manifest.contracts
}, 120_000)
afterAll(() => seeded?.stop())

const find = (q: string, limit?: number) => seeded.json<Answer>(`/search?q=${encodeURIComponent(q)}${limit === undefined ? '' : `&limit=${limit}`}`)
const launched = (symbol: string) => {
  const launch = seeded.seed!.protocol.launches.find((entry) => entry.symbol === symbol)
  if (!launch) throw new Error(`no launch of ${symbol} in the seed`)
  return launch
}

describe('/search: names', () => {
  test('BX: the listed token goes straight to its page, its tag and pairs follow', async () => {
    const answer = await find('BX')
    expect(Object.keys(answer)).toEqual(['query', 'go', 'results'])
    expect(answer.query).toBe('bx')
    expect(answer.go).toBe(`/token/${getAddress(c.BX)}`)
    expect(answer.results[0]).toEqual({ kind: 'token', title: 'BX', detail: 'BX', address: getAddress(c.BX), href: `/token/${getAddress(c.BX)}`, listed: true })
    const kinds = answer.results.map((result) => result.kind)
    expect(kinds).toContain('label')
    expect(kinds).toContain('pair')
    // The registry's entries before every entry of the chain.
    const lastListed = kinds.lastIndexOf('label')
    expect(kinds.slice(0, lastListed + 1).every((kind) => kind === 'token' || kind === 'label')).toBe(true)
  })

  test('Wrapped Ether by its name, in any case; a word inside a name finds it too', async () => {
    const weth = getAddress(c.WETH9)
    expect((await find('Wrapped Ether')).go).toBe(`/token/${weth}`)
    expect((await find('  wrapped   ETHER ')).go).toBe(`/token/${weth}`)
    const byWord = await find('ether')
    expect(byWord.results.some((result) => result.kind === 'token' && result.address === weth)).toBe(true)
    // The token and its tag both begin with "wrapped": two pages, so no single one to go to.
    const prefix = await find('wrapped')
    expect(prefix.go).toBeNull()
    expect(prefix.results.filter((result) => result.address === weth).map((result) => result.kind).sort()).toEqual(['label', 'token'])
  })

  test('Faucet: the tag label goes to the address it labels', async () => {
    const answer = await find('Faucet')
    expect(answer.go).toBe(`/address/${getAddress(c.Faucet)}`)
    expect(answer.results[0]).toMatchObject({ kind: 'label', title: 'Faucet', address: getAddress(c.Faucet) })
  })

  test('MOON: a launched token, marked unlisted; by its name as well', async () => {
    const moon = getAddress(launched('MOON').token)
    const answer = await find('MOON')
    expect(answer.go).toBe(`/token/${moon}`)
    expect(answer.results[0]).toEqual({ kind: 'token', title: 'Moon Cat', detail: 'MOON', address: moon, href: `/token/${moon}`, listed: false })
    expect((await find('moon cat')).go).toBe(`/token/${moon}`)
    expect((await find('cat')).results.some((result) => result.address === moon)).toBe(true)
  })

  test('tokens the token stream has seen are named by what they say of themselves, unlisted: the pairs\' LP tokens', async () => {
    let answer: Answer | null = null
    await waitFor(async () => {
      answer = await find('Uniswap V2', 50)
      return seeded.seed!.v2Pairs.every((pair) => answer!.results.some((result) => result.address === getAddress(pair)))
    }, 'the LP tokens in the search', 20_000)
    for (const pair of seeded.seed!.v2Pairs) {
      expect(answer!.results).toContainEqual({ kind: 'token', title: 'Uniswap V2', detail: 'UNI-V2', address: getAddress(pair), href: `/token/${getAddress(pair)}`, listed: false })
    }
    // By its symbol too; several of them, so no one page.
    const bySymbol = await find('uni-v2', 50)
    expect(bySymbol.go).toBeNull()
    expect(bySymbol.results.filter((result) => result.detail === 'UNI-V2').length).toBeGreaterThanOrEqual(seeded.seed!.v2Pairs.length)
  })

  test('BX/WETH: the pair and the pool, named by their tokens, either way round', async () => {
    const [bxWethPair] = seeded.seed!.v2Pairs
    const [bxWethPool] = seeded.seed!.v3Pools
    for (const q of ['BX/WETH', 'weth/bx']) {
      const answer = await find(q)
      // Two things are named so: the results say both, and no one page is chosen.
      expect(answer.go).toBeNull()
      expect(answer.results).toContainEqual({ kind: 'pair', title: 'BX/WETH', detail: 'V2', address: getAddress(bxWethPair!), href: `/exchange/pair/${getAddress(bxWethPair!)}`, listed: true })
      expect(answer.results).toContainEqual({ kind: 'pool', title: 'BX/WETH', detail: '0.3% · V3', address: getAddress(bxWethPool!), href: `/exchange/pool/${getAddress(bxWethPool!)}`, listed: true })
    }
    // A launched token's pair is named by the launch's symbol, and is the one page it names.
    const moon = launched('MOON')
    const pair = await find('MOON/WETH')
    expect(pair.go).toBe(`/exchange/pair/${getAddress(moon.pair)}`)
    // Not both of its tokens listed: marked so, as an unlisted token is.
    expect(pair.results[0]).toMatchObject({ kind: 'pair', address: getAddress(moon.pair), listed: false })
  })

  test('.bx names: a label or the whole name goes to the name; a prefix lists each', async () => {
    expect((await find('alice')).go).toBe('/name/alice')
    expect((await find('alice.bx')).go).toBe('/name/alice')
    const bob = await find('bob')
    expect(bob.go).toBe('/name/bob')
    expect(bob.results.filter((result) => result.kind === 'name').map((result) => result.title)).toEqual(['bob.bx', 'bobby.bx'])
    const dev = await find('dev-')
    expect(dev.results.map((result) => result.title)).toContain('dev-chain.bx')
  })
})

describe('/search: hashes, numbers and addresses', () => {
  test('a transaction hash, a block hash, a block number and an address each go to their page', async () => {
    const [tx] = await seeded.json<Array<{ hash: string; blockNumber: number }>>('/txs?limit=1')
    expect((await find(tx!.hash.toUpperCase().replace('0X', '0x'))).go).toBe(`/tx/${tx!.hash}`)
    const block = await seeded.json<{ number: number; hash: string }>(`/block/${tx!.blockNumber}`)
    const byHash = await find(block.hash)
    expect(byHash.go).toBe(`/block/${block.number}`)
    expect(byHash.results).toEqual([{ kind: 'block', title: `Block ${block.number}`, detail: block.hash, address: null, href: `/block/${block.number}`, listed: null }])
    expect((await find(String(block.number))).go).toBe(`/block/${block.number}`)
    const faucet = getAddress(c.Faucet)
    const address = await find(faucet.toLowerCase())
    expect(address.go).toBe(`/address/${faucet}`)
    expect(address.results[0]).toMatchObject({ kind: 'address', title: 'Faucet', detail: faucet })
  })

  test('an unknown hash and a block past the head name nothing', async () => {
    expect(await find(`0x${'ab'.repeat(32)}`)).toEqual({ query: `0x${'ab'.repeat(32)}`, go: null, results: [] })
    const far = await find('999999999')
    expect(far.go).toBeNull()
    expect(far.results).toEqual([])
  })
})

describe('/search: a launched token copying a listed symbol', () => {
  test('is found after the listed one, marked unlisted, and does not take its place', async () => {
    const launcher = ours.TokenLauncher.abi
    const data = encodeFunctionData({ abi: launcher, functionName: 'launch', args: ['Not The Real BX', 'BX', parseEther('1000'), parseEther('500')] })
    await send(seeded.anvil.rpcUrl, [{ from: devAccounts.carol.address, to: c.TokenLauncher, data, value: LAUNCH_FEE + parseEther('1') }])
    let answer: Answer | null = null
    await waitFor(async () => {
      answer = await find('BX')
      return answer.results.some((result) => result.title === 'Not The Real BX')
    }, 'the copy in the search', 20_000)
    const results = answer!.results
    const copy = results.findIndex((result) => result.title === 'Not The Real BX')
    expect(results[copy]).toMatchObject({ kind: 'token', detail: 'BX', listed: false })
    expect(results[0]).toMatchObject({ kind: 'token', address: getAddress(c.BX), listed: true })
    expect(copy).toBeGreaterThan(0)
    expect(answer!.go).toBe(`/token/${getAddress(c.BX)}`)
    // Its pair is named BX/WETH too, and marked: one of its tokens is not the registry's.
    const pairs = (await find('BX/WETH')).results.filter((result) => result.kind === 'pair' && result.title === 'BX/WETH')
    expect(pairs.map((result) => result.listed).sort()).toEqual([false, true])
  })
})

describe('/search: what a client sends', () => {
  test('a query over 100 characters is refused; at 100 it is read', async () => {
    const body = await seeded.json<{ error: string }>(`/search?q=${'a'.repeat(101)}`, 400)
    expect(body.error).toContain('100')
    expect((await find('a'.repeat(100))).results).toEqual([])
  })

  test('SQL wildcards and quotes are text: they find nothing, not everything', async () => {
    for (const q of ['%', '_', '%%', "' OR 1=1 --", '*', '\\', 'b%', 'B_']) {
      const answer = await find(q)
      expect(answer.results).toEqual([])
      expect(answer.go).toBeNull()
    }
  })

  test('no query, an empty one and a repeated one find nothing; the limit is clamped to 1..50', async () => {
    expect(await seeded.json<Answer>('/search')).toEqual({ query: '', go: null, results: [] })
    expect(await seeded.json<Answer>('/search?q=%20%20')).toEqual({ query: '', go: null, results: [] })
    expect((await seeded.json<Answer>('/search?q=bx&q=weth')).results).toEqual([])
    expect((await find('b', 1)).results).toHaveLength(1)
    expect((await find('b', 0)).results).toHaveLength(1)
    expect((await find('a', 1000)).results.length).toBeLessThanOrEqual(50)
    expect((await find('b', Number.NaN)).results.length).toBeLessThanOrEqual(8)
  })

  test('hostile bytes in the query never fail the route', async () => {
    for (const raw of ['%00', '%C0%AF', '%F0%9F%92%A9', '%E2%80%AE', encodeURIComponent('🚀'.repeat(50)), '%ZZ']) {
      const response = await seeded.get(`/search?q=${raw}`)
      expect([200, 400]).toContain(response.status)
      expect(response.headers.get('content-type')).toStartWith('application/json')
    }
  })
})
