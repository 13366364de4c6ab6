import { Elysia } from 'elysia'
import { numberToHex } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { checksumOrNull } from '../../eth/address.ts'
import { hex } from '../../eth/bytes.ts'
import { valueOf } from '../node.ts'
import { miniFromBlock, parseBlockNumber, type NodeBlock } from '../nodeBlocks.ts'
import { page, PAGE } from '../paging.ts'
import { BLOCK_COLUMNS, blockRow, miniRow, TX_COLUMNS, txSummary, type BlockRecord, type MiniRecord, type TxRecord } from '../rows.ts'

type BlockDetailRecord = BlockRecord & { parent_hash: Uint8Array; miner: Uint8Array | null; gas_limit: number; base_fee: string | null; size: number | null }

/** Spec 03: `/blocks` (newest first, `active=1` for blocks with transactions) and the block detail. */
export function blockRoutes(explorer: Explorer) {
  const { db, registry, node } = explorer

  const list = (limit: number, offset: number, active: boolean) =>
    db
      .query<BlockRecord, [number, number]>(
        `SELECT ${BLOCK_COLUMNS} FROM blocks b ${active ? 'WHERE b.tx_count > 0' : ''} ORDER BY b.number DESC LIMIT ? OFFSET ?`,
      )
      .all(limit, offset)
      .map(blockRow)

  /** The block's mini-blocks from the spool; when it has none, the node's answer (live). */
  const minisOf = async (number: number) => {
    const stored = db
      .query<MiniRecord, [number]>('SELECT number, block_number, hash, timestamp_us, tx_count FROM minis WHERE block_number = ? ORDER BY number')
      .all(number)
    if (stored.length > 0) return { minis: stored.map(miniRow), minisSource: 'index' as const }
    const block = valueOf<NodeBlock>(await node.batch([{ method: 'eth_getBlockByNumber', params: [numberToHex(number), false] }]), 0)
    return block ? { minis: [miniFromBlock(block)], minisSource: 'node' as const } : { minis: null, minisSource: null }
  }

  const detail = async (text: string, query: Record<string, unknown>) => {
    const number = parseBlockNumber(text)
    const row =
      number === null
        ? null
        : db
            .query<BlockDetailRecord, [number]>(`SELECT ${BLOCK_COLUMNS}, b.parent_hash, b.miner, b.gas_limit, b.base_fee, b.size FROM blocks b WHERE b.number = ?`)
            .get(number)
    if (!row) throw new NotFoundError('unknown block')
    const { limit, offset } = page(query, PAGE.block)
    const transactions = db
      .query<TxRecord, [number, number, number]>(
        `SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.number = t.block_number WHERE t.block_number = ? ORDER BY t.id LIMIT ? OFFSET ?`,
      )
      .all(row.number, limit, offset)
      .map((tx) => txSummary(tx, registry))
    const miner = checksumOrNull(row.miner)
    return {
      ...blockRow(row),
      parentHash: hex(row.parent_hash),
      miner,
      minerLabel: registry.labelName(miner),
      gasLimit: row.gas_limit,
      baseFeePerGas: row.base_fee,
      size: row.size,
      ...(await minisOf(row.number)),
      transactions,
    }
  }

  return new Elysia({ name: 'explorer-blocks' })
    .get('/blocks', ({ query }) => {
      const { limit, offset } = page(query)
      return list(limit, offset, query.active === '1')
    })
    .get('/block/:number', ({ params, query }) => detail(params.number, query))
}
