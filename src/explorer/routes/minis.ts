import { Elysia } from 'elysia'
import { numberToHex, type Hex } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { blob, parseHash } from '../../eth/bytes.ts'
import { valueOf } from '../node.ts'
import { miniFromBlock, nodeReceipt, nodeTxSummary, parseBlockNumber, type NodeBlock, type NodeReceipt, type NodeTx } from '../nodeBlocks.ts'
import { page, type Page } from '../paging.ts'
import { miniRow, TX_COLUMNS, txSummary, type MiniRecord, type TxRecord } from '../rows.ts'

const MINI_COLUMNS = 'number, block_number, hash, timestamp_us, tx_count'

/**
 * Spec 03: `/minis` ({total, minis}, newest first) and the mini-block detail, addressed by
 * number or hash. A mini-block the spool does not have yet is asked of the node; that answer
 * also carries stateDiffHash, sequencerSig and the receipts, so its shape says where it came from.
 */
export function miniRoutes(explorer: Explorer) {
  const { db, registry, node } = explorer

  const fromIndex = (mini: MiniRecord, { limit, offset }: Page) => {
    // A block cut into several mini-blocks hands them its transactions in order: this one's
    // start after those of the block's earlier mini-blocks.
    const before =
      db.query<{ n: number | null }, [number, number]>('SELECT sum(tx_count) AS n FROM minis WHERE block_number = ? AND number < ?').get(mini.block_number, mini.number)?.n ?? 0
    const count = Math.max(0, Math.min(limit, mini.tx_count - offset))
    const transactions = db
      .query<TxRecord, [number, number, number, number]>(
        `SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.number = t.block_number
          WHERE t.block_number = ? AND t.tx_index >= ? ORDER BY t.id LIMIT ? OFFSET ?`,
      )
      .all(mini.block_number, before, count, offset)
      .map((row) => txSummary(row, registry))
    return { ...miniRow(mini), source: 'index', transactions }
  }

  const fromNode = async (id: { number: number } | { hash: Hex }, { limit, offset }: Page) => {
    const blockId = 'number' in id ? numberToHex(id.number) : id.hash
    const results = await node.batch([
      'number' in id ? { method: 'eth_getBlockByNumber', params: [blockId, true] } : { method: 'eth_getBlockByHash', params: [blockId, true] },
      { method: 'eth_getBlockReceipts', params: [blockId] },
    ])
    const block = valueOf<NodeBlock>(results, 0)
    if (!block) return null
    const receipts = valueOf<NodeReceipt[]>(results, 1) ?? []
    return {
      ...miniFromBlock(block),
      source: 'node',
      stateDiffHash: block.stateDiffHash ?? block.stateRoot ?? null,
      sequencerSig: block.sequencerSig ?? null,
      receipts: receipts.map(nodeReceipt),
      transactions: (block.transactions as NodeTx[]).slice(offset, offset + limit).map((tx) => nodeTxSummary(tx, block, registry)),
    }
  }

  const detail = async (text: string, query: Record<string, unknown>) => {
    const paging = page(query)
    const hash = parseHash(text)
    const number = hash ? null : parseBlockNumber(text)
    if (hash === null && number === null) throw new NotFoundError('unknown mini-block')
    const stored = hash
      ? db.query<MiniRecord, [Uint8Array]>(`SELECT ${MINI_COLUMNS} FROM minis WHERE hash = ?`).get(blob(hash))
      : db.query<MiniRecord, [number]>(`SELECT ${MINI_COLUMNS} FROM minis WHERE number = ?`).get(number!)
    if (stored) return fromIndex(stored, paging)
    const live = await fromNode(hash ? { hash } : { number: number! }, paging)
    if (!live) throw new NotFoundError('unknown mini-block')
    return live
  }

  return new Elysia({ name: 'explorer-minis' })
    .get('/minis', ({ query }) => {
      const { limit, offset } = page(query)
      const minis = db.query<MiniRecord, [number, number]>(`SELECT ${MINI_COLUMNS} FROM minis ORDER BY number DESC LIMIT ? OFFSET ?`).all(limit, offset)
      return { total: db.query<{ n: number }, []>('SELECT count(*) AS n FROM minis').get()!.n, minis: minis.map(miniRow) }
    })
    .get('/mini/:numberOrHash', ({ params, query }) => detail(params.numberOrHash, query))
}
