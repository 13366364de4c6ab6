import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { erc20Abi, type Address } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { EXPORT_MAX_ROWS } from '../../src/explorer/routes/exports.ts'
import { DECIMAL, seededExplorer, statsAt, type SeededExplorer } from './helpers.ts'

// An address's and a token's list routes (docs/explorer.md "Lists of an address and of a
// token"), the names of the exchange's pairs and pools, and the CSV export, on the seeded dev chain.

type Tx = { hash: string; blockNumber: number; timestamp: number; from: string; to: string | null; created: string | null; fee: string | null; direction: 'in' | 'out' | 'self'; success: boolean }
type Moved = {
  txHash: string
  blockNumber: number
  timestamp: number
  token: string
  from: string
  to: string
  standard: string
  value?: string
  amount?: string
  tokenId?: string
  symbol?: string | null
  direction: string
}
type Internal = { txHash: string; traceId: string; type: string; from: string; to: string | null; created: string | null; value: string; direction: string }
type Pool = { address: string; kind: 'v2' | 'v3'; fee: number | null; tokens: [string, string]; name: string }

let seeded: SeededExplorer
const alice = devAccounts.alice.address
const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase()

beforeAll(async () => {
  seeded = await seededExplorer()
  await statsAt(seeded, await seeded.head())
})
afterAll(() => seeded?.stop())

const symbolOf = async (token: string) => seeded.dev.read<string>(token as Address, erc20Abi, 'symbol')

describe("an address's lists", () => {
  test('transactions: newest first, each with its age, fee and direction, paged on its own', async () => {
    const all = await seeded.json<{ total: number; transactions: Tx[] }>(`/address/${alice}/transactions?limit=100`)
    const detail = await seeded.json<{ counts: { transactions: number } }>(`/address/${alice}`)
    expect(all.total).toBe(detail.counts.transactions)
    expect(all.transactions.length).toBe(Math.min(100, all.total))
    expect(all.total).toBeGreaterThan(4)
    for (const [index, tx] of all.transactions.entries()) {
      expect(same(tx.from, alice) || same(tx.to, alice) || same(tx.created, alice)).toBe(true)
      expect(tx.direction).toBe(same(tx.from, alice) ? (same(tx.to, alice) ? 'self' : 'out') : 'in')
      expect(tx.fee).toMatch(DECIMAL)
      expect(typeof tx.timestamp).toBe('number')
      if (index > 0) expect(tx.blockNumber).toBeLessThanOrEqual(all.transactions[index - 1]!.blockNumber)
    }
    const first = await seeded.json<{ transactions: Tx[] }>(`/address/${alice}/transactions?limit=2`)
    const second = await seeded.json<{ transactions: Tx[] }>(`/address/${alice}/transactions?limit=2&offset=2`)
    expect([...first.transactions, ...second.transactions].map((tx) => tx.hash)).toEqual(all.transactions.slice(0, 4).map((tx) => tx.hash))
  })

  test('token transfers and NFT transfers: each its own list, with the direction, totals as the address counts them', async () => {
    const detail = await seeded.json<{ counts: { tokenTransfers: number; nftTransfers: number } }>(`/address/${alice}`)
    const tokens = await seeded.json<{ total: number; transfers: Moved[] }>(`/address/${alice}/token-transfers?limit=100`)
    const nfts = await seeded.json<{ total: number; transfers: Moved[] }>(`/address/${alice}/nft-transfers?limit=100`)
    expect(tokens.total).toBe(detail.counts.tokenTransfers)
    expect(nfts.total).toBe(detail.counts.nftTransfers)
    expect(tokens.transfers.length).toBeGreaterThan(0)
    expect(nfts.transfers.length).toBeGreaterThan(0)
    for (const transfer of tokens.transfers) {
      expect(transfer.standard).toBe('erc20')
      expect(transfer.value).toMatch(DECIMAL)
      expect(transfer.direction).toBe(same(transfer.from, alice) ? (same(transfer.to, alice) ? 'self' : 'out') : 'in')
    }
    for (const transfer of nfts.transfers) {
      expect(['erc721', 'erc1155']).toContain(transfer.standard)
      expect(transfer.tokenId).toMatch(DECIMAL)
    }
    // BX by its listed symbol.
    const bx = tokens.transfers.find((transfer) => same(transfer.token, seeded.manifest.contracts.BX))
    expect(bx?.symbol).toBe('BX')
    const paged = await seeded.json<{ transfers: Moved[] }>(`/address/${alice}/token-transfers?limit=1&offset=1`)
    expect(paged.transfers.map((transfer) => transfer.txHash)).toEqual([tokens.transfers[1]!.txHash])
  })

  test("internal transactions: the nested calls that moved ether to or from the address, as the spool's index finds them", async () => {
    const row = await seeded.spool.reader.get<{ address: Uint8Array }>('SELECT address FROM internal_calls GROUP BY address ORDER BY count(*) DESC LIMIT 1')
    expect(row).not.toBeNull()
    const address = `0x${Buffer.from(row!.address).toString('hex')}`
    const { calls } = await seeded.json<{ calls: Internal[] }>(`/address/${address}/internal?limit=100`)
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) {
      expect(same(call.from, address) || same(call.to, address) || same(call.created, address)).toBe(true)
      expect(BigInt(call.value) > 0n || call.type.startsWith('create') || call.type === 'selfdestruct').toBe(true)
      expect(call.traceId).toMatch(/^\d+(_\d+)*$/)
    }
    const second = await seeded.json<{ calls: Internal[] }>(`/address/${address}/internal?limit=1&offset=1`)
    if (calls.length > 1) expect(second.calls.map((call) => `${call.txHash}:${call.traceId}`)).toEqual([`${calls[1]!.txHash}:${calls[1]!.traceId}`])
  })

  test('a token contract says so, and a pair names itself', async () => {
    const bx = await seeded.json<{ token: string | null; pool: unknown }>(`/address/${seeded.manifest.contracts.BX}`)
    expect(bx.token).toBe('erc20')
    expect(bx.pool).toBeNull()
    const pair = seeded.seed!.v2Pairs[0]!
    const answer = await seeded.json<{ token: string | null; pool: { kind: string; name: string } }>(`/address/${pair}`)
    expect(answer.token).toBe('erc20')
    expect(answer.pool).toEqual({ kind: 'v2', name: 'BX/WETH · V2' })
    expect((await seeded.json<{ token: string | null }>(`/address/${alice}`)).token).toBeNull()
  })

  test('a list of what is not an address is a 404', async () => {
    for (const list of ['transactions', 'token-transfers', 'nft-transfers', 'internal']) await seeded.json(`/address/nothing/${list}`, 404)
    for (const list of ['holders', 'transfers', 'pools']) await seeded.json(`/token/0x12/${list}`, 404)
  })
})

describe("a token's lists", () => {
  test("holders: largest first, each balance what the token's balanceOf says", async () => {
    const bx = seeded.manifest.contracts.BX
    const { total, holders } = await seeded.json<{ total: number; holders: Array<{ address: string; balance: string }> }>(`/token/${bx}/holders?limit=100`)
    expect(total).toBe(holders.length)
    expect(total).toBeGreaterThan(3)
    for (const [index, holder] of holders.entries()) {
      const live = await seeded.dev.read<bigint>(bx, erc20Abi, 'balanceOf', [holder.address])
      expect(holder.balance).toBe(live.toString())
      if (index > 0) expect(BigInt(holder.balance) <= BigInt(holders[index - 1]!.balance)).toBe(true)
    }
    const second = await seeded.json<{ holders: Array<{ address: string }> }>(`/token/${bx}/holders?limit=1&offset=1`)
    expect(second.holders.map((holder) => holder.address)).toEqual([holders[1]!.address])
  })

  test("transfers: newest first, paged, totalling the token list's count", async () => {
    const bx = seeded.manifest.contracts.BX
    const tokens = await seeded.json<Array<{ address: string; transfers: number }>>('/tokens')
    const { total, transfers } = await seeded.json<{ total: number; transfers: Moved[] }>(`/token/${bx}/transfers?limit=5`)
    expect(total).toBe(tokens.find((token) => same(token.address, bx))!.transfers)
    expect(transfers).toHaveLength(5)
    expect(transfers.every((transfer) => same(transfer.token, bx) && transfer.symbol === 'BX')).toBe(true)
    const next = await seeded.json<{ transfers: Moved[] }>(`/token/${bx}/transfers?limit=2&offset=3`)
    expect(next.transfers.map((transfer) => `${transfer.txHash}`)).toEqual(transfers.slice(3, 5).map((transfer) => transfer.txHash))
  })

  test('pools: a token lists the pairs and pools that trade it; a liquidity token names its pair', async () => {
    const bx = seeded.manifest.contracts.BX
    const { pool, pools } = await seeded.json<{ pool: Pool | null; pools: Pool[] }>(`/token/${bx}/pools`)
    expect(pool).toBeNull()
    const names = pools.map((entry) => entry.name)
    expect(names).toContain('BX/WETH · V2')
    expect(names).toContain('BX/WETH · 0.3% · V3')
    expect(names.some((name) => name === 'BX/DUSD · V2' || name === 'DUSD/BX · V2')).toBe(true)
    const lp = await seeded.json<{ pool: Pool | null }>(`/token/${seeded.seed!.v2Pairs[1]}/pools`)
    expect(lp.pool?.name).toBe('DUSD/WETH · V2')
  })
})

describe('the names of pairs and pools', () => {
  test('/names names each pair and pool by its tokens, kind and fee; a tag still wins', async () => {
    const { v2Pairs, v3Pools } = seeded.seed!
    const factory = seeded.manifest.contracts.UniswapV2Factory
    const answer = await seeded.json<{ labels: Record<string, string | null>; pools: Record<string, string | null> }>(`/names?address=${[...v2Pairs, ...v3Pools, factory, alice].join(',')}`)
    const poolOf = (address: string) => Object.entries(answer.pools).find(([key]) => same(key, address))?.[1]
    expect(poolOf(v2Pairs[0]!)).toBe('BX/WETH · V2')
    expect(poolOf(v3Pools[0]!)).toBe('BX/WETH · 0.3% · V3')
    expect(poolOf(v3Pools[1]!)).toBe('DUSD/WETH · 0.05% · V3')
    expect(poolOf(alice)).toBeNull()
    // The factory has its tag (and is no pool); the symbols are the tokens' own.
    expect(Object.entries(answer.labels).find(([key]) => same(key, factory))?.[1]).toBeString()
    expect(poolOf(factory)).toBeNull()
    expect(await symbolOf(seeded.manifest.contracts.DUSD)).toBe('DUSD')
  })

  test("/tokens tells the pairs' liquidity tokens apart by their pairs", async () => {
    const tokens = await seeded.json<Array<{ address: string; name: string | null; pool: string | null }>>('/tokens')
    const lps = tokens.filter((token) => token.pool !== null)
    // The seed's three pairs and those of the launched tokens: every liquidity token ("Uniswap V2") named apart.
    expect(lps.length).toBeGreaterThanOrEqual(3)
    expect(new Set(lps.map((token) => token.pool)).size).toBe(lps.length)
    expect(lps.every((token) => token.pool!.endsWith(' · V2'))).toBe(true)
    expect(tokens.filter((token) => token.name === 'Uniswap V2').map((token) => token.address)).toEqual(lps.map((token) => token.address))
    for (const pair of seeded.seed!.v2Pairs) expect(lps.some((token) => same(token.address, pair))).toBe(true)
    expect(tokens.find((token) => same(token.address, seeded.manifest.contracts.BX))?.pool).toBeNull()
  })
})

/** The CSV's lines, its header first, each split at the commas outside quotes. */
function parseCsv(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true)
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) =>
      line
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
        .filter((cell, index, cells) => index < cells.length - 1 || cell !== '')
        .map((cell) => cell.replace(/,$/, '')),
    )
}

describe('the CSV export', () => {
  const csv = (path: string) => fetch(`${seeded.explorer.url}${path}`)

  test("an address's transactions: the page's rows, newest first, as a file to download", async () => {
    const response = await csv(`/address/${alice}/transactions.csv`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv;charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${alice}-transactions.csv"`)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const [head, ...rows] = parseCsv(await response.text())
    expect(head![0]).toBe('Transaction')
    const { transactions, total } = await seeded.json<{ total: number; transactions: Tx[] }>(`/address/${alice}/transactions?limit=100`)
    expect(rows).toHaveLength(total)
    expect(rows.map((row) => row[0])).toEqual(transactions.map((tx) => tx.hash))
    expect(rows.map((row) => row[10])).toEqual(transactions.map((tx) => tx.direction))
    expect(rows.map((row) => row[13])).toEqual(transactions.map((tx) => tx.fee ?? ''))
  })

  test('a block range and a day range bound the rows; token transfers alike', async () => {
    const { transactions } = await seeded.json<{ transactions: Tx[] }>(`/address/${alice}/transactions?limit=100`)
    const middle = transactions[Math.floor(transactions.length / 2)]!.blockNumber
    const [, ...rows] = parseCsv(await (await csv(`/address/${alice}/transactions.csv?startblock=${middle}&endblock=${middle + 5}`)).text())
    const wanted = transactions.filter((tx) => tx.blockNumber >= middle && tx.blockNumber <= middle + 5)
    expect(rows.map((row) => row[0])).toEqual(wanted.map((tx) => tx.hash))
    const day = new Date(transactions[0]!.timestamp * 1000).toISOString().slice(0, 10)
    const [, ...today] = parseCsv(await (await csv(`/address/${alice}/transactions.csv?from=${day}&to=${day}`)).text())
    expect(today.map((row) => row[0])).toEqual(transactions.filter((tx) => new Date(tx.timestamp * 1000).toISOString().startsWith(day)).map((tx) => tx.hash))
    const [, ...none] = parseCsv(await (await csv(`/address/${alice}/transactions.csv?from=2001-01-01&to=2001-01-02`)).text())
    expect(none).toEqual([])
    const transfers = await seeded.json<{ total: number; transfers: Moved[] }>(`/address/${alice}/token-transfers?limit=100`)
    const [tokenHead, ...tokenRows] = parseCsv(await (await csv(`/address/${alice}/token-transfers.csv`)).text())
    expect(tokenHead![4]).toBe('Token')
    expect(tokenRows.map((row) => [row[0], row[10]])).toEqual(transfers.transfers.map((transfer) => [transfer.txHash, transfer.value!]))
    expect(EXPORT_MAX_ROWS).toBe(10_000)
  })

  test('a bad range is a 400, what is not an address a 404, both JSON', async () => {
    for (const query of ['from=2024-13-01', 'to=yesterday', 'startblock=-1', 'endblock=1e3']) {
      const response = await csv(`/address/${alice}/transactions.csv?${query}`)
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toStartWith('application/json')
    }
    expect((await csv('/address/nobody/transactions.csv')).status).toBe(404)
  })
})
