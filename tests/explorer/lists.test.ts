import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { deposits } from '../spool/helpers.ts'
import { DECIMAL, mineEmpty, seededExplorer, sendInOneBlock, statsAt, type SeededExplorer } from './helpers.ts'

// The list routes of docs/explorer.md on the seeded dev chain, plus a block of 60 transactions (to see the
// block detail's default of 50), three empty blocks (for active=1) and a hundred more single
// transactions (so that more than 200 blocks carry transactions and the chart clamp shows).

type Block = { number: number; hash: string; timestamp: number; gasUsed: number; txCount: number; miniCount: number }
type Tx = { hash: string; blockNumber: number; index: number; from: string; to: string | null; value: string; method: string | null; success: boolean }

let seeded: SeededExplorer
let bigBlock: number
let head: number

beforeAll(async () => {
  seeded = await seededExplorer()
  const weth = seeded.manifest.contracts.WETH9
  bigBlock = await sendInOneBlock(
    seeded.anvil.rpcUrl,
    Array.from({ length: 60 }, () => ({ from: devAccounts.carol.address, to: weth, data: '0xd0e30db0', value: 1n })),
  )
  await mineEmpty(seeded.anvil.rpcUrl, 3)
  await deposits(seeded.anvil.rpcUrl, weth, 100, devAccounts.bob.address)
  head = await seeded.head()
  await statsAt(seeded, head)
})
afterAll(() => seeded?.stop())

describe('/stats and /', () => {
  test('the stats object: freshness keys, counters, mini-block head and spool health', async () => {
    const stats = await seeded.json<Record<string, unknown>>('/stats')
    expect(stats).toMatchObject({
      latestBlock: head,
      indexedBlock: head,
      indexLag: 0,
      derivedLag: 0,
      blocks: head + 1,
      miniBlockHead: head,
      nodeReachable: true,
      tracesAvailable: true,
      historyGap: null,
    })
    const transactions = (await seeded.spool.reader.get<{ n: number }>('SELECT count(*) AS n FROM txs'))!.n
    expect(stats.transactions).toBe(transactions)
    expect(stats.wallets).toBeGreaterThanOrEqual(5)
    expect(stats.tokens).toBeGreaterThanOrEqual(3)
    expect(stats.nftCollections).toBe(2)
    expect(typeof stats.gasPrice).toBe('string')
    expect(stats.gasPrice as string).toMatch(DECIMAL)
    expect(typeof stats.miniBlockHeadTimestamp_us).toBe('number')
    expect(await seeded.json('/')).toEqual(stats)
  })

  test('a new block shows within the background recompute', async () => {
    await deposits(seeded.anvil.rpcUrl, seeded.manifest.contracts.WETH9, 1)
    head = await seeded.head()
    await statsAt(seeded, head)
    expect((await seeded.json<{ latestBlock: number }>('/stats')).latestBlock).toBe(head)
  })
})

describe('/overview and /charts', () => {
  test('the overview: cached stats, 48 chart points, 8 active blocks, 12 transactions, 8 busiest accounts', async () => {
    const overview = await seeded.json<{ stats: { indexedBlock: number }; charts: unknown[]; blocks: Block[]; txs: Tx[]; topAccounts: Array<{ txCount: number }> }>('/overview')
    expect(Object.keys(overview)).toEqual(['stats', 'charts', 'blocks', 'txs', 'topAccounts'])
    expect(overview.charts).toHaveLength(48)
    expect(overview.blocks).toHaveLength(8)
    expect(overview.blocks.every((block) => block.txCount > 0)).toBe(true)
    expect(overview.txs).toHaveLength(12)
    expect(overview.txs[0]!.blockNumber).toBe(head)
    expect(overview.topAccounts).toHaveLength(8)
    const counts = overview.topAccounts.map((account) => account.txCount)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
  })

  test('chart points: default 48, oldest first, blocks with transactions, clamped to 200', async () => {
    const points = await seeded.json<Array<{ number: number; timestamp: number; txCount: number; gasUsed: number }>>('/charts')
    expect(points).toHaveLength(48)
    expect(Object.keys(points[0]!)).toEqual(['number', 'timestamp', 'txCount', 'gasUsed'])
    expect(points.at(-1)!.number).toBe(head)
    expect(points.map((point) => point.number)).toEqual([...points.map((point) => point.number)].sort((a, b) => a - b))
    expect(points.every((point) => point.txCount > 0)).toBe(true)
    expect(await seeded.json<unknown[]>('/charts?limit=500')).toHaveLength(200)
    expect(await seeded.json<unknown[]>('/charts?limit=nope')).toHaveLength(48)
    // A small limit still prefers blocks with transactions: the seed made far more than four.
    const small = await seeded.json<Array<{ number: number; txCount: number }>>('/charts?limit=-4')
    expect(small).toHaveLength(1)
    expect(small[0]!.number).toBe(head)
    expect(small[0]!.txCount).toBeGreaterThan(0)
    const three = await seeded.json<Array<{ txCount: number }>>('/charts?limit=3')
    expect(three.map((point) => point.txCount > 0)).toEqual([true, true, true])
  })
})

describe('/blocks and the block detail', () => {
  test('a bare array of block rows, newest first, 25 by default, at most 100', async () => {
    const blocks = await seeded.json<Block[]>('/blocks')
    expect(blocks).toHaveLength(25)
    expect(Object.keys(blocks[0]!)).toEqual(['number', 'hash', 'timestamp', 'gasUsed', 'txCount', 'miniCount'])
    expect(blocks[0]!.number).toBe(head)
    expect(blocks[1]!.number).toBe(head - 1)
    expect(blocks[0]!.miniCount).toBe(1)
    expect(await seeded.json<Block[]>('/blocks?limit=200')).toHaveLength(100)
    expect(await seeded.json<Block[]>('/blocks?limit=abc')).toHaveLength(25)
    expect(await seeded.json<Block[]>('/blocks?limit=-1')).toHaveLength(1)
    expect(await seeded.json<Block[]>('/blocks?limit=3&offset=-7')).toEqual(await seeded.json<Block[]>('/blocks?limit=3'))
    expect((await seeded.json<Block[]>('/blocks?limit=2&offset=2'))[0]!.number).toBe(head - 2)
    expect(await seeded.json<Block[]>(`/blocks?offset=1${'0'.repeat(30)}`)).toEqual([])
    // One rule for what a number is, the exchange index's too: no exponent, hex or fraction.
    for (const text of ['1e2', '0x10', '3.5']) {
      expect(await seeded.json<Block[]>(`/blocks?limit=${text}`)).toHaveLength(25)
      expect((await seeded.json<Block[]>(`/blocks?limit=2&offset=${text}`))[0]!.number).toBe(head)
    }
  })

  test('active=1 keeps only blocks with transactions', async () => {
    const all = await seeded.json<Block[]>(`/blocks?limit=100&offset=${head - bigBlock - 5}`)
    expect(all.some((block) => block.txCount === 0)).toBe(true)
    const active = await seeded.json<Block[]>('/blocks?active=1&limit=100')
    expect(active).toHaveLength(100)
    expect(active.every((block) => block.txCount > 0)).toBe(true)
  })

  test('the detail: decimal or 0x number, 50 transactions by default, paged, its mini-blocks', async () => {
    type Detail = Block & { parentHash: string; miner: string; gasLimit: number; baseFeePerGas: string; minis: Array<Record<string, unknown>>; minisSource: string; transactions: Tx[] }
    const detail = await seeded.json<Detail>(`/block/${bigBlock}`)
    expect(detail).toMatchObject({ number: bigBlock, txCount: 60, miniCount: 1, minisSource: 'index' })
    expect(detail.transactions).toHaveLength(50)
    expect(detail.transactions.map((tx) => tx.index)).toEqual(Array.from({ length: 50 }, (_, index) => index))
    expect(detail.minis).toEqual([{ number: bigBlock, blockNumber: bigBlock, hash: detail.hash, timestamp_us: detail.timestamp * 1_000_000, txCount: 60 }])
    expect(detail.baseFeePerGas).toMatch(DECIMAL)
    expect(await seeded.json(`/block/0x${bigBlock.toString(16)}`)).toEqual(detail)
    // The prefix in either case, as an address's.
    expect(await seeded.json(`/block/0X${bigBlock.toString(16).toUpperCase()}`)).toEqual(detail)
    expect((await seeded.json<Detail>(`/block/${bigBlock}?limit=200`)).transactions).toHaveLength(60)
    expect((await seeded.json<Detail>(`/block/${bigBlock}?limit=x`)).transactions).toHaveLength(50)
    const rest = await seeded.json<Detail>(`/block/${bigBlock}?offset=50`)
    expect(rest.transactions.map((tx) => tx.index)).toEqual(Array.from({ length: 10 }, (_, index) => 50 + index))
  })

  test('unknown or malformed block numbers are 404', async () => {
    for (const path of [`/block/${head + 1000}`, '/block/abc', '/block/-1', '/block/0xzz']) {
      expect((await seeded.json<{ error: string }>(path, 404)).error).toBe('unknown block')
    }
  })
})

describe('/minis and the mini-block detail', () => {
  test('{total, minis}, newest first, with timestamps in microseconds', async () => {
    const page = await seeded.json<{ total: number; minis: Array<{ number: number; blockNumber: number; hash: string; timestamp_us: number; txCount: number }> }>('/minis')
    expect(page.total).toBe(head + 1)
    expect(page.minis).toHaveLength(25)
    expect(page.minis[0]).toMatchObject({ number: head, blockNumber: head })
    expect(Number.isInteger(page.minis[0]!.timestamp_us)).toBe(true)
    expect((await seeded.json<{ minis: unknown[] }>('/minis?limit=500')).minis).toHaveLength(100)
  })

  test('by number or by hash, its transactions paged (25 by default)', async () => {
    type Mini = { number: number; hash: string; source: string; txCount: number; transactions: Tx[] }
    const mini = await seeded.json<Mini>(`/mini/${bigBlock}`)
    expect(mini).toMatchObject({ number: bigBlock, source: 'index', txCount: 60 })
    expect(mini.transactions).toHaveLength(25)
    expect(await seeded.json(`/mini/${mini.hash}`)).toEqual(mini)
    expect(await seeded.json(`/mini/${mini.hash.toUpperCase().replace('0X', '0x')}`)).toEqual(mini)
    expect(await seeded.json(`/mini/${mini.hash.toUpperCase()}`)).toEqual(mini)
    expect(await seeded.json(`/mini/0X${bigBlock.toString(16)}`)).toEqual(mini)
    expect((await seeded.json<Mini>(`/mini/${bigBlock}?limit=100&offset=40`)).transactions.map((tx) => tx.index)).toEqual(Array.from({ length: 20 }, (_, index) => 40 + index))
  })

  test('a mini-block neither the spool nor the node has is 404', async () => {
    await seeded.json(`/mini/0x${'ab'.repeat(32)}`, 404)
    await seeded.json(`/mini/${head + 1000}`, 404)
    await seeded.json('/mini/nonsense', 404)
  })
})

describe('/txs', () => {
  test('a bare array of summaries, newest first, 25 by default, at most 100', async () => {
    const txs = await seeded.json<Tx[]>('/txs')
    expect(txs).toHaveLength(25)
    expect(txs[0]).toMatchObject({ blockNumber: head, success: true, method: 'deposit' })
    expect(txs[0]!.value).toMatch(DECIMAL)
    expect(await seeded.json<Tx[]>('/txs?limit=1000')).toHaveLength(100)
    const second = await seeded.json<Tx[]>('/txs?limit=1&offset=1')
    expect(second[0]!.hash).toBe(txs[1]!.hash)
  })
})

describe('/accounts', () => {
  test('{total, accounts} ordered by transaction count, with labels', async () => {
    const page = await seeded.json<{ total: number; accounts: Array<{ address: string; txCount: number; label: string | null; contract: boolean }> }>('/accounts?limit=100')
    const total = (await seeded.spool.reader.get<{ n: number }>(
      'SELECT count(*) AS n FROM (SELECT from_addr AS a FROM txs UNION SELECT to_addr FROM txs WHERE to_addr IS NOT NULL UNION SELECT created FROM txs WHERE created IS NOT NULL)',
    ))!.n
    expect(page.total).toBe(total)
    const counts = page.accounts.map((account) => account.txCount)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
    const weth = page.accounts.find((account) => account.address === seeded.manifest.contracts.WETH9)!
    expect(weth).toMatchObject({ label: 'Wrapped Ether (WETH9)', contract: true })
    expect((await seeded.json<{ accounts: unknown[] }>('/accounts')).accounts).toHaveLength(Math.min(25, total))
    expect((await seeded.json<{ accounts: unknown[] }>('/accounts?limit=3&offset=1')).accounts).toEqual(page.accounts.slice(1, 4))
    expect((await seeded.json<{ accounts: unknown[] }>('/accounts?limit=-2')).accounts).toHaveLength(1)
  })
})
