import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { getAddress, parseEther, type Address } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { NAME_PRICES_BX } from '../../src/devnet/deploy.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { DECIMAL, seededExplorer, waitFor, type SeededExplorer } from './helpers.ts'

// The name service, the fee layer and the launched tokens on the seeded dev chain: /name read
// live from the registry, the address object's name record, /fees against what the router
// holds (read with eth_call), and the launched tokens in /tokens.

type Body = Record<string, any>
let seeded: SeededExplorer
let c: SeededExplorer['manifest']['contracts']
const { treasury, alice, bob, carol, operator } = devAccounts

beforeAll(async () => {
  seeded = await seededExplorer()
  c = seeded.manifest.contracts
})
afterAll(() => seeded?.stop())

/** An explorer over the same spool with other settings (another config, a node that is gone). */
async function otherExplorer(toml: string, use: (json: (path: string, status?: number) => Promise<Body>) => Promise<void>) {
  const context = testContext(toml)
  const app = serveOnFreePort(createExplorerApp(context, seeded.spool), 'explorer')
  try {
    await use(async (path, status = 200) => {
      const response = await fetch(`${app.url}/api${path}`)
      expect(response.status).toBe(status)
      expect(response.headers.get('cache-control')).toBe('no-store')
      return (await response.json()) as Body
    })
  } finally {
    await app.stop()
  }
}

const names = () => ours.NameRegistry.abi
const chainTime = async () => Number((await seeded.dev.clients.publicClient.getBlock()).timestamp)
const bx = (amount: string) => parseEther(amount).toString()

describe('/name/{name}', () => {
  test('a registered name: owner, resolved address, expiry, yearly price and text records, as the registry says', async () => {
    const body = await seeded.json<Body>('/name/alice')
    expect(Object.keys(body)).toEqual(['name', 'label', 'available', 'reserved', 'owner', 'resolved', 'expires', 'price', 'twitter', 'website', 'description'])
    expect(body).toMatchObject({
      name: 'alice.bx',
      label: 'alice',
      available: false,
      reserved: false,
      owner: alice.address,
      resolved: alice.address,
      price: bx(NAME_PRICES_BX[2]),
      twitter: '@alice',
      website: 'https://alice.example',
      description: 'Builds on the dev chain.',
    })
    const record = await seeded.dev.read<{ expires: bigint }>(c.NameRegistry, names(), 'lookup', ['alice'])
    expect(body.expires).toBe(Number(record.expires))
    expect(body.expires).toBeGreaterThan(await chainTime())
    // The suffix is stripped, and any case of it.
    expect(await seeded.json('/name/alice.bx')).toEqual(body)
    expect(await seeded.json('/name/ALICE.BX')).toEqual(body)
    // A name resolving elsewhere than its owner; missing text records are null.
    expect(await seeded.json('/name/dev-chain.bx')).toMatchObject({ owner: alice.address, resolved: bob.address, twitter: null, website: null, description: null })
  })

  test('a reserved label: reserved, not available, nobody owns it', async () => {
    expect(await seeded.json('/name/stack.bx')).toEqual({
      name: 'stack.bx', label: 'stack', available: false, reserved: true, owner: null, resolved: null, expires: null,
      price: bx(NAME_PRICES_BX[2]), twitter: null, website: null, description: null,
    })
  })

  test('an expired name: available again, its last owner and expiry kept, resolving to nothing', async () => {
    const body = await seeded.json<Body>('/name/genesis')
    expect(body).toMatchObject({ name: 'genesis.bx', available: true, reserved: false, owner: treasury.address, resolved: null })
    expect(body.expires).toBeLessThan(await chainTime())
    expect(await seeded.dev.read(c.NameRegistry, names(), 'available', ['genesis'])).toBe(true)
  })

  test('a label nobody registered: available, with its yearly price by length', async () => {
    expect(await seeded.json('/name/nobody-here')).toEqual({
      name: 'nobody-here.bx', label: 'nobody-here', available: true, reserved: false, owner: null, resolved: null, expires: null,
      price: bx(NAME_PRICES_BX[2]), twitter: null, website: null, description: null,
    })
    expect((await seeded.json<Body>('/name/xyz')).price).toBe(bx(NAME_PRICES_BX[0]))
    expect((await seeded.json<Body>('/name/wxyz.bx')).price).toBe(bx(NAME_PRICES_BX[1]))
  })

  test('live: a name registered now shows at once, no spool involved', async () => {
    expect((await seeded.json<Body>('/name/carol-two')).available).toBe(true)
    await seeded.dev.write(carol, c.NameRegistry, names(), 'register', ['carol-two', 1n])
    expect(await seeded.json('/name/carol-two')).toMatchObject({ available: false, owner: carol.address, resolved: carol.address })
  })

  test('404 out of range (3 to 32 after the suffix), and 404 for a label no name can have: it is unknown', async () => {
    for (const name of ['ab', 'ab.bx', 'a'.repeat(33), `${'a'.repeat(33)}.bx`]) expect((await seeded.json<Body>(`/name/${name}`, 404)).error).toContain('3 to 32')
    expect((await seeded.json<Body>(`/name/${'a'.repeat(32)}.bx`)).available).toBe(true)
    for (const name of ['a_b', 'a_b_c', '-ab', '-abc', 'ab-', 'abc-', 'a.b.c', 'ab%20cd']) {
      expect((await seeded.json<Body>(`/name/${name}`, 404)).error).toContain('a-z, 0-9')
    }
  })

  test('404 for every lookup when the config names no name service', async () => {
    await otherExplorer('[explorer]\nnameRegistry = ""\n', async (json) => {
      expect((await json('/name/alice', 404)).error).toBe('no name service is configured')
      expect((await json('/name/ab', 404)).error).toContain('3 to 32')
      expect((await json(`/address/${alice.address}`)).name).toBeNull()
    })
  })

  test('the registry unread (the node down, or nothing answering at its address): 200, the label kept, every live field null', async () => {
    const unread = (label: string) => ({
      name: `${label}.bx`, label, available: null, reserved: null, owner: null, resolved: null, expires: null,
      price: null, twitter: null, website: null, description: null,
    })
    await otherExplorer('[chain]\nrpc = "http://127.0.0.1:9"\n[explorer]\nnodeTimeoutMs = 200\n', async (json) => {
      expect(await json('/name/alice')).toEqual(unread('alice'))
      expect(await json('/name/ALICE.BX')).toEqual(unread('alice'))
      // What is not a name stays unknown without asking the node.
      expect((await json('/name/a_b', 404)).error).toContain('a-z, 0-9')
      expect((await json(`/address/${alice.address}`)).name).toBeNull()
    })
    // A configured address with no code: the node answers, the registry does not.
    await otherExplorer(`[explorer]\nnameRegistry = "${operator.address}"\n`, async (json) => {
      expect(await json('/name/alice')).toEqual(unread('alice'))
    })
  })
})

describe('/names', () => {
  test('the name each address goes by and its tag label, null for none: every address asked, checksummed, in one answer', async () => {
    const asked = [alice.address.toLowerCase(), bob.address, operator.address, c.FeeRouter, alice.address]
    const answer = await seeded.json<Body>(`/names?address=${asked.join(',')}`)
    expect(answer).toEqual({
      names: { [alice.address]: 'alice.bx', [bob.address]: 'bob.bx', [operator.address]: null, [c.FeeRouter]: null },
      labels: { [alice.address]: null, [bob.address]: null, [operator.address]: null, [c.FeeRouter]: 'Fee Router' },
      pools: { [alice.address]: null, [bob.address]: null, [operator.address]: null, [c.FeeRouter]: null },
    })
  })

  test('at most 100 distinct addresses, the first asked; one that is not an address is unknown (404); none asked, none answered', async () => {
    const many = Array.from({ length: 150 }, (_, index) => `0x${(index + 1).toString(16).padStart(40, '0')}`)
    expect(Object.keys((await seeded.json<Body>(`/names?address=${many.join(',')}`)).names)).toEqual(many.slice(0, 100).map((address) => getAddress(address)))
    // Repeats count once: the 100th distinct address is named even behind many repeats of the first.
    const repeated = [...Array(120).fill(many[0]), ...many.slice(1, 100)]
    expect(Object.keys((await seeded.json<Body>(`/names?address=${repeated.join(',')}`)).names)).toHaveLength(100)
    expect((await seeded.json<Body>(`/names?address=${alice.address},0x1234`, 404)).error).toBe('not an address: 0x1234')
    expect((await seeded.json<Body>('/names?address=zz', 404)).error).toBe('not an address: zz')
    // Every entry is read, past the hundredth too.
    expect((await seeded.json<Body>(`/names?address=${[...many, 'zz'].join(',')}`, 404)).error).toBe('not an address: zz')
    expect(await seeded.json<Body>('/names')).toEqual({ names: {}, labels: {}, pools: {} })
    expect((await seeded.json<Body>(`/names?address=${alice.address}&address=${bob.address}`)).names).toEqual({ [alice.address]: 'alice.bx', [bob.address]: 'bob.bx' })
  })

  test('every name null when the config names no name service, or the node is away', async () => {
    const asked = `/names?address=${alice.address},${c.FeeRouter}`
    const unnamed = { [alice.address]: null, [c.FeeRouter]: null }
    await otherExplorer('[explorer]\nnameRegistry = ""\n', async (json) => {
      expect((await json(asked)).names).toEqual(unnamed)
    })
    await otherExplorer('[chain]\nrpc = "http://127.0.0.1:9"\n[explorer]\nnodeTimeoutMs = 200\n', async (json) => {
      expect((await json(asked)).names).toEqual(unnamed)
    })
  })
})

describe('the address object', () => {
  test("carries the name record the account goes by (its reverse record), the same as /name's", async () => {
    for (const [account, label] of [[alice, 'alice'], [bob, 'bob'], [carol, 'carol'], [treasury, 'treasury']] as const) {
      const { name } = await seeded.json<Body>(`/address/${account.address}`)
      expect([label, name]).toEqual([label, await seeded.json(`/name/${label}`)])
    }
    // No name at all, and a contract.
    expect((await seeded.json<Body>(`/address/${operator.address}`)).name).toBeNull()
    expect((await seeded.json<Body>(`/address/${c.FeeRouter}`)).name).toBeNull()
  })

  test('a name that now resolves elsewhere is no longer the account\'s name', async () => {
    // A reverse record holds only while its name resolves to the account. (The address answer is
    // cached a few seconds per paging: each read here asks with other paging.)
    await seeded.dev.write(bob, c.NameRegistry, names(), 'setReverse', ['bobby'])
    expect((await seeded.json<Body>(`/address/${bob.address}?limit=24`)).name.label).toBe('bobby')
    await seeded.dev.write(bob, c.NameRegistry, names(), 'setResolved', ['bobby', carol.address])
    expect((await seeded.json<Body>(`/address/${bob.address}?limit=23`)).name).toBeNull()
  })
})

/** What the router holds, read with eth_call. */
async function onChain() {
  const read = (functionName: string, args: unknown[] = []) => seeded.dev.read<bigint>(c.FeeRouter, ours.FeeRouter.abi, functionName, args)
  const [launch, name, arcade] = [0, 1, 2]
  return {
    launches: { eth: await read('receivedEth', [launch]), token: await read('receivedToken', [launch]) },
    names: { eth: await read('receivedEth', [name]), token: await read('receivedToken', [name]) },
    arcadeSkims: { eth: await read('receivedEth', [arcade]), token: await read('receivedToken', [arcade]) },
    burn: { eth: await read('burnedEth'), token: await read('burnedToken') },
    deferred: { eth: await read('deferredEth'), token: await read('deferredToken') },
    claimable: { eth: await read('claimableEth'), token: await read('claimableToken') },
    claimed: { eth: await read('claimedEth'), token: await read('claimedToken') },
    pendingEthWei: await read('pendingEth'),
    pendingToken: await read('pendingToken'),
    balance: await seeded.dev.clients.publicClient.getBalance({ address: c.FeeRouter }),
    tokenBalance: await seeded.dev.read<bigint>(c.BX, ours.Token.abi, 'balanceOf', [c.FeeRouter]),
  }
}

/** /fees figures beside the router's own, as strings. */
async function compareFees() {
  const head = await seeded.head()
  await waitFor(() => seeded.spool.health().streams.fees?.cursorBlock === head, 'the fees stream at the head')
  const fees = await seeded.json<Body>('/fees')
  const chain = await onChain()
  const sides = (figure: { eth: bigint; token: bigint }) => ({ eth: figure.eth.toString(), token: figure.token.toString() })
  for (const key of ['launches', 'names', 'arcadeSkims', 'burn', 'deferred', 'claimable', 'claimed'] as const) {
    expect([key, { eth: fees[key].eth, token: fees[key].token }]).toEqual([key, sides(chain[key])])
  }
  expect(fees.pendingEthWei).toBe(chain.pendingEthWei.toString())
  expect(fees.pendingToken).toBe(chain.pendingToken.toString())
  // The router holds exactly what is pending: nothing is lost between the two sides.
  expect([chain.balance, chain.tokenBalance]).toEqual([chain.pendingEthWei, chain.pendingToken])
  return { fees, chain }
}

describe('/fees', () => {
  test('the seeded fee layer: every figure equals what the router holds, ether and token apart', async () => {
    const { fees, chain } = await compareFees()
    expect(fees).toMatchObject({
      deployed: true,
      router: c.FeeRouter,
      token: c.BX,
      treasury: treasury.address,
      split: { burnBps: 2500, treasuryBps: 7500 },
      burn: { address: getAddress('0x000000000000000000000000000000000000dEaD') },
      distributions: 1,
      claimed: { count: 1 },
    })
    // Launches pay ether, every registration (the lapsed name's included) BX, the arcade skims ether.
    const registrations = await seeded.dev.clients.publicClient.getContractEvents({ address: c.NameRegistry, abi: names(), eventName: 'NameRegistered', fromBlock: 0n })
    expect(registrations.length).toBeGreaterThan(seeded.seed!.protocol.names.registered.length)
    expect(fees.launches).toMatchObject({ count: seeded.seed!.protocol.launches.length, token: '0' })
    expect(fees.names).toMatchObject({ count: registrations.length, eth: '0' })
    expect(fees.arcadeSkims.count).toBeGreaterThan(0)
    expect(BigInt(fees.arcadeSkims.eth)).toBeGreaterThan(0n)
    // Fees arrived after the split: some wait on both sides.
    expect(chain.deferred.eth).toBeGreaterThan(0n)
    expect(chain.deferred.token).toBeGreaterThan(0n)
    for (const key of ['launches', 'names', 'arcadeSkims', 'received', 'burn', 'deferred', 'claimable', 'claimed', 'toTreasury']) {
      expect(fees[key].eth).toMatch(DECIMAL)
      expect(fees[key].token).toMatch(DECIMAL)
    }
    expect(fees.recent.length).toBeGreaterThan(0)
    expect(fees.recent[0]).toMatchObject({ txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), kind: expect.any(String) })
  })

  test('a split and a claim move the figures as they move the router', async () => {
    const before = (await seeded.json<Body>('/fees')).distributions
    await seeded.dev.write(alice, c.FeeRouter, ours.FeeRouter.abi, 'distribute')
    await seeded.dev.write(treasury, c.FeeRouter, ours.FeeRouter.abi, 'claim')
    const { fees, chain } = await compareFees()
    expect(fees.distributions).toBe(before + 1)
    expect([chain.deferred, chain.claimable]).toEqual([{ eth: 0n, token: 0n }, { eth: 0n, token: 0n }])
    expect(fees.recent.slice(0, 2).map((movement: Body) => [movement.kind, movement.account])).toEqual([['claimed', treasury.address], ['distributed', alice.address]])
  })

  test('a revert to a snapshot takes the fees it orphaned out of the figures, and those paid after it in', async () => {
    const before = (await compareFees()).fees
    const snapshot = await seeded.dev.test.snapshot()
    // A launch fee and a split that the revert will orphan.
    await seeded.dev.write(alice, c.FeeRouter, ours.FeeRouter.abi, 'payEther', [0], { value: 7_000_000_000_000_000n })
    await seeded.dev.write(alice, c.FeeRouter, ours.FeeRouter.abi, 'distribute')
    const orphaned = (await compareFees()).fees
    expect(orphaned.distributions).toBe(before.distributions + 1)
    await seeded.dev.test.revert({ id: snapshot })
    // The chain goes on another way: a smaller fee, and three blocks past the old head.
    await seeded.dev.write(alice, c.FeeRouter, ours.FeeRouter.abi, 'payEther', [0], { value: 3_000_000_000_000_000n })
    await seeded.dev.mine(3)
    const { fees } = await compareFees()
    expect(fees.distributions).toBe(before.distributions)
    expect(fees.launches.count).toBe(before.launches.count + 1)
    expect(BigInt(fees.launches.eth)).toBe(BigInt(before.launches.eth) + 3_000_000_000_000_000n)
    expect(fees.recent.some((movement: Body) => orphaned.recent.slice(0, 2).some((gone: Body) => gone.txHash === movement.txHash))).toBe(false)
  })

  test('{deployed:false} and nothing else when the config names no fee layer', async () => {
    await otherExplorer('[explorer]\nfeeRouter = ""\n', async (json) => {
      expect(await json('/fees')).toEqual({ deployed: false })
    })
  })
})

describe('launched tokens', () => {
  test('in /tokens with their chain metadata, without the verified mark the listed tokens have', async () => {
    const tokens = await seeded.json<Body[]>('/tokens')
    for (const launch of seeded.seed!.protocol.launches) {
      const token = tokens.find((row) => row.address === launch.token)
      expect(token).toMatchObject({ symbol: launch.symbol, decimals: 18, verified: false, logoURI: null })
    }
    expect(tokens.find((row) => row.address === c.BX)!.verified).toBe(true)
    // The launcher made each one; its creator is the launcher.
    const launched = seeded.seed!.protocol.launches[0]!
    expect((await seeded.json<Body>(`/address/${launched.token}`)).creator.address).toBe(c.TokenLauncher as Address)
  })
})

describe('the registry', () => {
  test('tags every new contract under its category, and the explorer labels it', async () => {
    const { tags } = await seeded.json<{ tags: Record<string, { name: string; category: string }> }>('/tags')
    const expected = { FeeRouter: 'protocol', NameRegistry: 'names', TokenLauncher: 'dex', EthUsdFeed: 'oracle' } as const
    for (const [contract, category] of Object.entries(expected)) {
      const address = c[contract as keyof typeof expected]
      expect([contract, tags[address]?.category]).toEqual([contract, category])
      expect((await seeded.json<Body>(`/address/${address}`)).label).toMatchObject({ name: tags[address]!.name, category })
    }
  })
})
