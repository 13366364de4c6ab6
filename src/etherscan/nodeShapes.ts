import type { SpoolDb } from '../spool/engine.ts'
import { logsBloom } from '../eth/bloom.ts'
import { blockByNumber, blockTxs, txLogs, txsInFull, type Block, type TxInBlock } from '../spool/read.ts'
import { lower, quantityHex } from './rows.ts'

// Blocks, transactions and receipts from the spool in the node's JSON-RPC shape, for what the
// node no longer keeps. Fields the spool does not copy (state and receipt roots, signatures,
// access lists) are left out rather than made up.

const MAX_TXS_OF_BLOCK = 100_000

/** A transaction as eth_getTransactionByHash gives it. */
export function txShape(tx: TxInBlock, chainId: number) {
  return {
    blockHash: lower(tx.blockHash),
    blockNumber: quantityHex(tx.blockNumber),
    chainId: quantityHex(chainId),
    from: lower(tx.from),
    gas: quantityHex(tx.gas),
    gasPrice: quantityHex(tx.effectiveGasPrice ?? tx.gasPrice ?? '0'),
    ...(tx.maxFee !== null ? { maxFeePerGas: quantityHex(tx.maxFee) } : {}),
    ...(tx.maxPriorityFee !== null ? { maxPriorityFeePerGas: quantityHex(tx.maxPriorityFee) } : {}),
    hash: lower(tx.hash),
    input: lower(tx.input),
    nonce: quantityHex(tx.nonce),
    to: tx.to ? lower(tx.to) : null,
    transactionIndex: quantityHex(tx.index),
    type: quantityHex(tx.type),
    value: quantityHex(tx.value),
  }
}

/** The transaction with this spool id in the node's shape, or null. */
export async function txShapeById(db: SpoolDb, id: number, chainId: number) {
  const [tx] = await txsInFull(db, [id])
  return tx ? txShape(tx, chainId) : null
}

/** A receipt as eth_getTransactionReceipt gives it, with the node's log indexes. */
export async function receiptShape(db: SpoolDb, id: number) {
  const [tx] = await txsInFull(db, [id])
  if (!tx) return null
  const logs = await txLogs(db, id)
  const topicsOf = (log: (typeof logs)[number]) => [log.topic0, log.topic1, log.topic2, log.topic3].filter((topic) => topic !== null)
  return {
    blockHash: lower(tx.blockHash),
    blockNumber: quantityHex(tx.blockNumber),
    contractAddress: tx.created ? lower(tx.created) : null,
    cumulativeGasUsed: quantityHex(tx.cumulativeGasUsed),
    effectiveGasPrice: quantityHex(tx.effectiveGasPrice ?? tx.gasPrice ?? '0'),
    from: lower(tx.from),
    gasUsed: quantityHex(tx.gasUsed),
    logs: logs.map((log) => ({
      address: lower(log.address),
      topics: topicsOf(log).map((topic) => lower(topic)),
      data: lower(log.data),
      blockHash: lower(tx.blockHash),
      blockNumber: quantityHex(tx.blockNumber),
      transactionHash: lower(tx.hash),
      transactionIndex: quantityHex(tx.index),
      logIndex: quantityHex(log.logIndex),
      removed: false,
    })),
    logsBloom: logsBloom(logs.map((log) => ({ address: log.address, topics: topicsOf(log) }))),
    status: quantityHex(tx.status),
    to: tx.to ? lower(tx.to) : null,
    transactionHash: lower(tx.hash),
    transactionIndex: quantityHex(tx.index),
    type: quantityHex(tx.type),
  }
}

/** A block as eth_getBlockByNumber gives it: its transactions' hashes, or with `full` the transactions. */
export async function blockShape(db: SpoolDb, number: number, full: boolean, chainId: number) {
  const block: Block | null = await blockByNumber(db, number)
  if (!block) return null
  const ids = (await blockTxs(db, number, { limit: MAX_TXS_OF_BLOCK })).map((tx) => tx.id)
  const txs = await txsInFull(db, ids)
  return {
    baseFeePerGas: block.baseFee !== null ? quantityHex(block.baseFee) : undefined,
    gasLimit: quantityHex(block.gasLimit),
    gasUsed: quantityHex(block.gasUsed),
    hash: lower(block.hash),
    miner: lower(block.miner) || null,
    number: quantityHex(block.number),
    parentHash: lower(block.parentHash),
    size: block.size !== null ? quantityHex(block.size) : undefined,
    timestamp: quantityHex(block.timestamp),
    transactions: full ? txs.map((tx) => txShape(tx, chainId)) : txs.map((tx) => lower(tx.hash)),
    uncles: [],
  }
}
