import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { SPOOL_FILE } from '../../src/spool/sqlite/db.ts'
import { seededExplorer, send, waitFor, type SeededExplorer } from './helpers.ts'

// Live parts: mini-blocks the spool lacks come from the node, and with
// the node gone the live fields are null or absent while the rest is served from the spool, 200.

let seeded: SeededExplorer
let c: SeededExplorer['manifest']['contracts']

beforeAll(async () => {
  seeded = await seededExplorer()
  c = seeded.manifest.contracts
})
afterAll(() => seeded?.stop())

type Mini = { number: number; blockNumber: number; hash: string; timestamp_us: number; txCount: number; source: string; stateDiffHash?: string | null; sequencerSig?: string | null; receipts?: Array<{ transactionHash: string; success: boolean }>; transactions: Array<{ hash: string; from: string }> }

describe('mini-blocks the spool does not have', () => {
  test('a mini-block the spool has not caught up with is read from the node, with its receipts', async () => {
    seeded.spoolProxy.stop() // the spool stops following; the explorer still reaches the node
    const [hash] = await send(seeded.anvil.rpcUrl, [{ from: devAccounts.alice.address, to: devAccounts.bob.address, value: 5n }])
    const head = await seeded.head()
    const mini = await seeded.json<Mini>(`/mini/${head}`)
    expect(mini).toMatchObject({ number: head, blockNumber: head, source: 'node', txCount: 1, sequencerSig: null })
    expect(mini.stateDiffHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(mini.receipts).toEqual([expect.objectContaining({ transactionHash: hash, success: true })])
    expect(mini.transactions).toEqual([expect.objectContaining({ hash, from: devAccounts.alice.address })])
    expect(await seeded.json(`/mini/${mini.hash}`)).toEqual(mini)
    // The block itself is not in the index: the block detail does not ask the node for it.
    await seeded.json(`/block/${head}`, 404)
    seeded.spoolProxy.start()
  })

  test('a block whose mini-blocks the index lacks gets them from the node', async () => {
    // A spool written from a sequencer may hold a block before its mini-blocks; play that here.
    const writer = new Database(join(seeded.spool.path.replace(/[^/]+$/, ''), SPOOL_FILE))
    writer.run('PRAGMA busy_timeout = 5000')
    writer.run('DELETE FROM minis WHERE number = 7')
    writer.close()
    const block = await seeded.json<{ hash: string; timestamp: number; miniCount: number; minis: Array<Record<string, unknown>>; minisSource: string }>('/block/7')
    expect(block.miniCount).toBe(0)
    expect(block.minisSource).toBe('node')
    expect(block.minis).toEqual([{ number: 7, blockNumber: 7, hash: block.hash, timestamp_us: block.timestamp * 1_000_000, txCount: 1 }])
  })
})

describe('the node unreachable', () => {
  beforeAll(async () => {
    seeded.spoolProxy.stop()
    await seeded.anvil.stop()
  })

  test('an address: balance, nonce and code are null; the spool part is all there', async () => {
    const started = performance.now()
    type Answer = { balance: null; nonce: null; contract: boolean | null; bytecode: null; bytecodeSize: null; counts: { sent: number; tokenTransfers: number }; tokens: Array<{ symbol: string; balance: string | null }>; nfts: Array<{ tokenId: string; metadata: unknown }>; transactions: unknown[] }
    const alice = await seeded.json<Answer>(`/address/${devAccounts.alice.address}`)
    expect(alice).toMatchObject({ balance: null, nonce: null, contract: null, bytecode: null, bytecodeSize: null })
    expect(alice.counts.sent).toBeGreaterThan(0)
    expect(alice.counts.tokenTransfers).toBeGreaterThan(0)
    expect(alice.transactions.length).toBeGreaterThan(0)
    expect(alice.tokens.find((token) => token.symbol === 'BX')).toMatchObject({ balance: null })
    expect(alice.nfts).toContainEqual(expect.objectContaining({ tokenId: '3', metadata: null }))
    // Known from the spool: BX was created by a transaction, so it is a contract.
    const bx = await seeded.json<Answer>(`/address/${c.BX}`)
    expect(bx).toMatchObject({ contract: true, bytecode: null, balance: null })
    expect(performance.now() - started).toBeLessThan(2000)
  })

  test('tokens and NFTs: registry and index figures, probes null', async () => {
    const tokens = await seeded.json<Array<{ address: string; symbol: string; totalSupply: string | null; native: boolean }>>('/tokens')
    expect(tokens[0]).toMatchObject({ address: c.BX, symbol: 'BX', native: true, totalSupply: null })
    const { nfts } = await seeded.json<{ nfts: Array<{ address: string; name: string; symbol: string | null }> }>('/nfts')
    expect(nfts).toContainEqual(expect.objectContaining({ address: c.DemoNFT, name: 'Demo NFT', symbol: null }))
    const item = await seeded.json<{ owner: string; tokenURI: null; metadata: null; collectionMeta: { name: string } }>(`/nft/${c.DemoNFT}/1`)
    expect(item).toMatchObject({ owner: devAccounts.bob.address, tokenURI: null, metadata: null, collectionMeta: { name: 'Demo NFT' } })
    const collection = await seeded.json<{ items: Array<{ metadata: unknown }> }>(`/nft/${c.DemoNFT}`)
    expect(collection.items).toHaveLength(5)
  })

  test('stats say the node is unreachable and keep the last head known', async () => {
    type Stats = { nodeReachable: boolean; latestBlock: number | null; indexedBlock: number; gasPrice: string | null }
    // The background task finds out at its next tick, within a second.
    const stats = await waitFor(async () => {
      const answer = await seeded.json<Stats>('/stats')
      return answer.nodeReachable ? null : answer
    }, 'stats without the node', 3000)
    expect(stats.gasPrice).toBeNull()
    expect(stats.latestBlock).toBeGreaterThanOrEqual(stats.indexedBlock)
  })

  test('archive routes answer from the spool alone', async () => {
    const [latest] = await seeded.json<Array<{ hash: string }>>('/txs?limit=1')
    const tx = await seeded.json<{ hash: string; traces: unknown[] }>(`/tx/${latest!.hash}`)
    expect(tx.traces).toHaveLength(1)
    expect((await seeded.json<{ minisSource: string }>('/block/8')).minisSource).toBe('index')
    await seeded.json('/overview')
    await seeded.json('/accounts')
    await seeded.json(`/mini/${10_000}`, 404)
  })
})
