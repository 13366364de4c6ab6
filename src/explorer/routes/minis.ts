import { Elysia } from 'elysia'
import { numberToHex, type Hex } from 'viem'
import { answerKind } from '../../chain/rpc.ts'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { blob, parseHash } from '../../eth/bytes.ts'
import { blockTxs, latestMinis, miniByHash, miniByNumber, miniCount, miniFirstTxIndex, type Mini } from '../../spool/read.ts'
import { valueOf } from '../node.ts'
import { miniFromBlock, nodeReceipt, nodeTxSummary, parseBlockNumber, type NodeBlock, type NodeReceipt, type NodeTx } from '../nodeBlocks.ts'
import { page, type Page } from '../paging.ts'
import { miniRow, txSummary } from '../rows.ts'

/**
 * `/minis` ({total, minis}, newest first) and the mini-block detail, addressed by
 * number or hash. A mini-block the spool does not have yet is asked of the node; that answer
 * also carries stateDiffHash, sequencerSig and the receipts, so its shape says where it came from.
 */
export function miniRoutes(explorer: Explorer) {
  const { db, registry, node } = explorer

  const fromIndex = async (mini: Mini, { limit, offset }: Page) => {
    // Its transactions are its block's from its first, as many as it carried.
    const count = Math.max(0, Math.min(limit, mini.txCount - offset))
    const txs = await blockTxs(db, mini.blockNumber, { limit: count, offset, fromIndex: await miniFirstTxIndex(db, mini) })
    const name = await explorer.known.namer(txs.map((tx) => tx.to))
    const transactions = txs.map((tx) => txSummary(tx, registry, name))
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
    const shown = (block.transactions as NodeTx[]).slice(offset, offset + limit)
    const name = await explorer.known.namer(shown.map((tx) => tx.to))
    const receipts = valueOf<NodeReceipt[]>(results, 1) ?? (results && answerKind(results[1]!) === 'unsupported' ? await receiptsOneByOne(block) : [])
    return {
      ...miniFromBlock(block),
      source: 'node',
      stateDiffHash: block.stateDiffHash ?? block.stateRoot ?? null,
      sequencerSig: block.sequencerSig ?? null,
      receipts: receipts.map(nodeReceipt),
      transactions: shown.map((tx) => nodeTxSummary(tx, block, registry, name)),
    }
  }

  /** A node without eth_getBlockReceipts (Hardhat's): the block's receipts asked one by one, in one batch. */
  const receiptsOneByOne = async (block: NodeBlock): Promise<NodeReceipt[]> => {
    const hashes = (block.transactions as NodeTx[]).map((tx) => tx.hash)
    const results = await node.batch(hashes.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })))
    return hashes.flatMap((_, index) => valueOf<NodeReceipt>(results, index) ?? [])
  }

  const detail = async (text: string, query: Record<string, unknown>) => {
    const paging = page(query)
    const hash = parseHash(text)
    const number = hash ? null : parseBlockNumber(text)
    if (hash === null && number === null) throw new NotFoundError('unknown mini-block')
    const stored = hash ? await miniByHash(db, blob(hash)) : await miniByNumber(db, number!)
    if (stored) return fromIndex(stored, paging)
    const live = await fromNode(hash ? { hash } : { number: number! }, paging)
    if (!live) throw new NotFoundError('unknown mini-block')
    return live
  }

  return new Elysia({ name: 'explorer-minis' })
    .get('/minis', ({ query }) => {
      const paging = page(query)
      return explorer.lists.answer(`minis:${paging.limit}:${paging.offset}`, async () => ({ total: await miniCount(db), minis: (await latestMinis(db, paging)).map(miniRow) }))
    })
    .get('/mini/:numberOrHash', ({ params, query }) => detail(params.numberOrHash, query))
}
