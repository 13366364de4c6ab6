import { beforeAll, describe, expect, test } from 'bun:test'
import { encodeFunctionData, type Hex } from 'viem'
import { CALLDATA_MAX_BYTES } from '../../src/explorer/contract.ts'
import { pagesStack, type PagesStack } from '../helpers/explorerPages.ts'
import { COUNTER_SOURCE, deployProxy, deployVerifiedCounter, SENDER, SOURCE_PATH, START, type Counter } from './counterContract.ts'

// The explorer's contract routes on `stack dev`, with a contract compiled by solc-js, deployed and
// verified in the stack's spool: what the book knows of it, and reads of its view functions
// through the node, which refuse everything that is not one.

let stack: PagesStack
let counter: Counter

beforeAll(async () => {
  stack = await pagesStack()
  counter = await deployVerifiedCounter(stack.dir, stack.stack.urls.etherscan!)
}, 120_000)

const get = async (path: string) => {
  const response = await fetch(`${stack.origin}/api${path}`)
  return { status: response.status, cache: response.headers.get('cache-control'), body: (await response.json()) as any }
}
const data = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: counter.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
const call = (calldata: string, extra = '') => get(`/address/${counter.address}/call?data=${calldata}${extra}`)

describe('/api/address/{address}/contract', () => {
  test('a verified contract: its match, compiler settings, licence, constructor arguments, every source and the ABI', async () => {
    const { status, body } = await get(`/address/${counter.address.toLowerCase()}/contract`)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      address: counter.address,
      name: 'Counter',
      match: 'exact_match',
      by: { kind: 'verified' },
      compilerVersion: counter.compilerVersion,
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      licence: 'MIT',
      constructorArguments: START.toString(16).padStart(64, '0'),
      libraries: {},
      sources: [{ path: SOURCE_PATH, content: COUNTER_SOURCE }],
      proxy: null,
    })
    expect(body.abi).toEqual(counter.abi)
  })

  test('an address the book knows nothing of answers every field null; a bad address is the 404', async () => {
    const { status, body } = await get(`/address/${SENDER}/contract`)
    expect(status).toBe(200)
    expect(body.address).toBe(SENDER)
    for (const key of ['name', 'match', 'by', 'compilerVersion', 'optimizer', 'evmVersion', 'licence', 'constructorArguments', 'libraries', 'sources', 'abi', 'proxy']) expect(body[key]).toBeNull()
    const bad = await get('/address/0x1234/contract')
    expect(bad.status).toBe(404)
    expect(bad.body).toEqual({ error: 'not an address' })
  })
})

describe('a proxy nobody verified, to the verified contract', () => {
  test('its contract answer names the implementation and its ABI; reads of the implementation\'s functions run at the proxy', async () => {
    const proxy = await deployProxy(counter.rpc, counter.address)
    const { status, body } = await get(`/address/${proxy}/contract`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ address: proxy, name: null, by: null, abi: null, sources: null, proxy: { kind: 'eip1967', implementation: counter.address, name: 'Counter', match: 'exact_match', by: { kind: 'verified' } } })
    expect(body.proxy.abi).toEqual(counter.abi)
    // The proxy's storage is its own: its count is 0, the implementation's START.
    const read = await get(`/address/${proxy}/call?data=${data('describe', ['Proxied'])}`)
    expect(read.body.outputs).toEqual([
      { name: 'label', type: 'string', value: 'Proxied is at' },
      { name: 'value', type: 'uint256', value: '0' },
    ])
    const tooMany = await get(`/address/${proxy}/call?data=${data('ratio', [5000n])}`)
    expect(tooMany.body.revertReason).toMatchObject({ kind: 'custom', message: 'TooMany(5000, 1000)' })
    expect((await get(`/address/${proxy}/call?data=${data('add', [1n])}`)).status).toBe(400)
  })
})

describe('/api/address/{address}/call', () => {
  test('a view function: the raw result and the outputs decoded by name and type', async () => {
    const count = await call(data('count'))
    expect(count.status).toBe(200)
    expect(count.cache).toBe('no-store')
    expect(count.body).toMatchObject({ address: counter.address, function: { name: 'count', signature: 'count()', stateMutability: 'view' }, reverted: false, revertReason: null })
    expect(BigInt(count.body.result)).toBe(START)
    expect(count.body.outputs).toEqual([{ name: '', type: 'uint256', value: START.toString() }])
    const described = await call(data('describe', ['Counter']))
    expect(described.body.outputs).toEqual([
      { name: 'label', type: 'string', value: 'Counter is at' },
      { name: 'value', type: 'uint256', value: START.toString() },
    ])
    const owner = await call(data('owner'), `&from=${SENDER}`)
    expect(owner.body.outputs[0].value).toBe(SENDER)
  })

  test('a revert is an answer with its reason in words: a custom error of the ABI, a panic', async () => {
    const tooMany = await call(data('ratio', [5000n]))
    expect(tooMany.status).toBe(200)
    expect(tooMany.body).toMatchObject({ reverted: true, result: null, outputs: null, revertReason: { kind: 'custom', name: 'TooMany', message: 'TooMany(5000, 1000)' } })
    const byZero = await call(data('ratio', [0n]))
    expect(byZero.body.revertReason).toMatchObject({ kind: 'panic', code: '0x12', message: 'division or modulo by zero' })
  })

  test('a read may use up to the gas cap (explorer.callGasCap, 50,000,000), past the block gas limit, and no more', async () => {
    const spun = await call(data('spin'))
    expect(spun.status).toBe(200)
    expect(spun.body).toMatchObject({ reverted: true, revertReason: { kind: 'unknown', message: 'ran out of gas: a read may use at most 50,000,000 gas', data: '0x' } })
    // burn(rounds) costs a fixed gas a round: reads just under and just over the cap.
    const gasOf = async (rounds: bigint) => BigInt(await counter.rpc.call<Hex>('eth_estimateGas', [{ to: counter.address, data: data('burn', [rounds]), gas: '0x5f5e100' }]))
    const [small, large] = [await gasOf(10_000n), await gasOf(20_000n)]
    const perRound = (large - small) / 10_000n
    const roundsFor = (gas: bigint) => (gas - small) / perRound + 10_000n
    const blockGasLimit = BigInt((await counter.rpc.call<{ gasLimit: Hex }>('eth_getBlockByNumber', ['latest', false])).gasLimit)
    expect(blockGasLimit).toBeLessThan(45_000_000n)
    const under = await call(data('burn', [roundsFor(45_000_000n)]))
    expect(under.body.reverted).toBe(false)
    const over = await call(data('burn', [roundsFor(55_000_000n)]))
    expect(over.body.revertReason).toMatchObject({ message: 'ran out of gas: a read may use at most 50,000,000 gas' })
  }, 60_000)

  test('it is no general eth_call: a function that writes, a selector the ABI lacks, calldata past the cap or not hex', async () => {
    const refusals: Array<[string, RegExp]> = [
      [data('add', [1n]), /^add\(uint256\) is not a view or pure function/],
      ['0xdeadbeef', /^0xdeadbeef is not a function of the contract's ABI/],
      [`${data('count')}${'00'.repeat(CALLDATA_MAX_BYTES)}`, new RegExp(`at most ${CALLDATA_MAX_BYTES} bytes`)],
      ['0xzz', /hex/],
      ['0x12', /selector/],
      ['', /hex/],
    ]
    for (const [calldata, message] of refusals) {
      const refused = await call(calldata)
      expect(refused.status).toBe(400)
      expect(refused.cache).toBe('no-store')
      expect(refused.body.error).toMatch(message)
    }
    expect((await call(data('count'), '&from=nobody')).status).toBe(400)
    // An address with no known ABI has nothing to read.
    const unknown = await get(`/address/${SENDER}/call?data=${data('count') as Hex}`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toMatch(/no ABI is known/)
  })

  test('only GET: a POST to either route is the explorer\'s 405', async () => {
    for (const route of ['contract', `call?data=${data('count')}`]) {
      const response = await fetch(`${stack.origin}/api/address/${counter.address}/${route}`, { method: 'POST' })
      expect(response.status).toBe(405)
      expect(((await response.json()) as { error: string }).error).toBeString()
    }
  })
})
