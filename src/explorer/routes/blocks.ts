import { Elysia } from 'elysia'
import { numberToHex } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { checksumOrNull } from '../../eth/address.ts'
import { hex } from '../../eth/bytes.ts'
import { valueOf } from '../node.ts'
import { miniFromBlock, parseBlockNumber, type NodeBlock } from '../nodeBlocks.ts'
import { page, PAGE } from '../paging.ts'
import { blockRow, miniRow, txSummary } from '../rows.ts'
import { blockByNumber, blockTxs, gapHolding, latestBlocks, minisOfBlock } from '../../spool/read.ts'

/** `/blocks` (newest first, `active=1` for blocks with transactions) and the block detail. */
export function blockRoutes(explorer: Explorer) {
  const { db, registry, node } = explorer

  /** The block's mini-blocks from the spool; when it has none, the node's answer (live). */
  const minisOf = async (number: number) => {
    const stored = await minisOfBlock(db, number)
    if (stored.length > 0) return { minis: stored.map(miniRow), minisSource: 'index' as const }
    const block = valueOf<NodeBlock>(await node.batch([{ method: 'eth_getBlockByNumber', params: [numberToHex(number), false] }]), 0)
    return block ? { minis: [miniFromBlock(block)], minisSource: 'node' as const } : { minis: null, minisSource: null }
  }

  const detail = async (text: string, query: Record<string, unknown>) => {
    const number = parseBlockNumber(text)
    const block = number === null ? null : await blockByNumber(db, number)
    if (!block) {
      const gap = number === null ? null : await gapHolding(db, number)
      if (gap) throw new NotFoundError(`block ${number} is in a history gap: the node no longer had blocks ${gap.from} to ${gap.to} when the spool reached them`)
      throw new NotFoundError('unknown block')
    }
    const txs = await blockTxs(db, block.number, page(query, PAGE.block))
    const name = await explorer.known.namer(txs.map((tx) => tx.to))
    const transactions = txs.map((tx) => txSummary(tx, registry, name))
    const miner = checksumOrNull(block.miner)
    return {
      ...blockRow(block),
      parentHash: hex(block.parentHash),
      miner,
      minerLabel: registry.labelName(miner),
      gasLimit: block.gasLimit,
      baseFeePerGas: block.baseFee,
      size: block.size,
      ...(await minisOf(block.number)),
      transactions,
    }
  }

  return new Elysia({ name: 'explorer-blocks' })
    .get('/blocks', ({ query }) => {
      const paging = { ...page(query), active: query.active === '1' }
      return explorer.lists.answer(`blocks:${paging.limit}:${paging.offset}:${paging.active}`, async () => (await latestBlocks(db, paging)).map(blockRow))
    })
    .get('/block/:number', ({ params, query }) => detail(params.number, query))
}
