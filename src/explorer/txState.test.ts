import { expect, test } from 'bun:test'
import { checksum } from '../eth/address.ts'
import { blob } from '../eth/bytes.ts'
import { LiveNode } from './node.ts'
import { accountChanges, MAX_SLOTS, tokenChanges, tracedState } from './txState.ts'
import type { Transfer } from './transfers.ts'

const TOKEN = '0x1111111111111111111111111111111111111111'
const ALICE = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa'
const PAIR = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'
const ROUTER = checksum(`0x${'cc'.repeat(20)}`)
const ZERO = '0x0000000000000000000000000000000000000000'
const registry = { labelName: (address: string | null) => (address?.toLowerCase() === PAIR.toLowerCase() ? 'BX/WETH pair' : null) }
const meta = () => ({ symbol: 'BX', decimals: 18, verified: true })
const move = (from: string, to: string, amount: string, kind: Transfer['kind'] = 20): Transfer => ({
  logIndex: 0,
  seq: 0,
  token: blob(TOKEN),
  kind,
  from: blob(from),
  to: blob(to),
  tokenId: kind === 20 ? null : '1',
  amount,
})

test('token changes: net per holder, a pass-through and the zero address left out, NFTs not counted', () => {
  const changes = tokenChanges(
    [move(ALICE, ROUTER, '100'), move(ROUTER, PAIR, '100'), move(ZERO, ALICE, '7'), move(PAIR, ALICE, '1', 721)],
    meta,
    registry,
  )
  expect(changes.map((change) => [change.holder, change.change, change.holderLabel, change.symbol])).toEqual([
    [ALICE, '-93', null, 'BX'],
    [PAIR, '100', 'BX/WETH pair', 'BX'],
  ])
})

const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

test("account changes: post's omissions kept, slots before and after, zero where absent, sorted by address", () => {
  const { accounts, truncated } = accountChanges(
    {
      pre: {
        [PAIR.toLowerCase()]: { balance: '0x10', nonce: 1, code: '0x6000', storage: { [word(8)]: word(5), [word(9)]: word(3) } },
        [ALICE.toLowerCase()]: { balance: '0x64', nonce: 4 },
      },
      post: {
        [PAIR.toLowerCase()]: { storage: { [word(8)]: word(6), '0xa': '0x1' } },
        [ALICE.toLowerCase()]: { balance: '0x32', nonce: 5 },
        [ROUTER.toLowerCase()]: { balance: '0x1', nonce: 1, code: '0x600060' },
      },
    },
    registry,
  )
  expect(truncated).toBe(false)
  expect(accounts).toEqual([
    { address: ALICE, label: null, balance: { before: '100', after: '50' }, nonce: { before: 4, after: 5 }, codeSize: null, storage: [] },
    {
      address: PAIR,
      label: 'BX/WETH pair',
      balance: null,
      nonce: null,
      codeSize: null,
      storage: [
        { slot: word(8), before: word(5), after: word(6) },
        { slot: word(9), before: word(3), after: word(0) },
        { slot: word(10), before: word(0), after: word(1) },
      ],
    },
    // Made by the transaction: no pre at all.
    { address: ROUTER, label: null, balance: { before: '0', after: '1' }, nonce: { before: 0, after: 1 }, codeSize: { before: 0, after: 3 }, storage: [] },
  ])
})

test('account changes: bounded slots say truncated; keys that are no address are dropped', () => {
  const storage = Object.fromEntries(Array.from({ length: MAX_SLOTS + 5 }, (_, n) => [word(n), word(n + 1)]))
  const { accounts, truncated } = accountChanges({ pre: {}, post: { [PAIR]: { storage }, 'not an address': { balance: '0x1' } } }, registry)
  expect(truncated).toBe(true)
  expect(accounts).toHaveLength(1)
  expect(accounts[0]!.storage).toHaveLength(MAX_SLOTS)
})

test("the node's trace: a node without the debug namespace says unsupported, one away unreachable", async () => {
  // A node as one without the debug namespace answers (geth's words and code).
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      const calls = (await request.json()) as Array<{ id: number; method: string }>
      return Response.json(calls.map((call) => ({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } })))
    },
  })
  try {
    expect(await tracedState(new LiveNode(`http://127.0.0.1:${server.port}`, 2000), `0x${'ab'.repeat(32)}`)).toEqual({ missing: 'unsupported' })
  } finally {
    server.stop(true)
  }
  expect(await tracedState(new LiveNode(`http://127.0.0.1:${server.port}`, 2000), `0x${'ab'.repeat(32)}`)).toEqual({ missing: 'unreachable' })
})
