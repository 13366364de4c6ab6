import { Elysia } from 'elysia'
import type { Address, Hex } from 'viem'
import { NotFoundError } from '../../errors.ts'
import { decodeInput, decodeLog, methodName } from '../../decode/decode.ts'
import type { Explorer } from '../explorer.ts'
import { checksum, checksumOrNull } from '../../eth/address.ts'
import { blob, hex, parseHash } from '../../eth/bytes.ts'
import { page } from '../paging.ts'
import { TOKEN_META_AGE_MS } from '../probes.ts'
import { tokenKind } from '../read/tokens.ts'
import { nftTransfer, tokenMetaOf, tokenTransfer, txSummary } from '../rows.ts'
import { decodeTransfers } from '../transfers.ts'
import { abisOf, decodedTrace, framesOf, txRevertReason } from '../txDecoding.ts'
import { latestTxs, txByHash, txLogs, txTrace } from '../../spool/read.ts'

/** `/txs` (newest first, no total) and `/tx/{hash}`, the full transaction. */
export function txRoutes(explorer: Explorer) {
  const { db, registry } = explorer
  const label = (address: string | null) => (address === null ? null : registry.label(address))

  const detail = async (hash: Hex) => {
    const tx = txByHash(db, blob(hash))
    if (!tx) throw new NotFoundError('unknown transaction')

    const logs = txLogs(db, tx.id)
    const trace = txTrace(db, tx.id)
    const to = checksumOrNull(tx.to)
    const toKind = tx.to ? tokenKind(db, tx.to) : null
    // What the contract book knows of every contract the transaction reached, one lookup each.
    const frames = trace ? framesOf(trace) : []
    const reachedAddresses = [tx.to, ...logs.map((log) => log.address), ...frames.map((frame) => frame.to)]
    const decoders = await explorer.known.decoders(reachedAddresses)
    const reached = abisOf(reachedAddresses.map(decoders))
    const using = decoders(tx.to)

    const transfers = logs.flatMap(decodeTransfers)
    const fungible = transfers.filter((transfer) => transfer.kind === 20)
    // Unlisted tokens are named by asking them (one batch, remembered for a minute); with the
    // node away their symbol and decimals are null.
    const unlisted = [...new Set(fungible.map((transfer) => checksum(transfer.token)))].filter((token) => !registry.token(token))
    const tokenMeta = tokenMetaOf(registry, await explorer.probes.probe(unlisted as Address[], TOKEN_META_AGE_MS))

    const input = hex(tx.input)
    return {
      ...txSummary(tx, registry, (target, selector) => methodName(selector, decoders(target))),
      blockHash: hex(tx.blockHash),
      nonce: tx.nonce,
      type: tx.type,
      gas: tx.gas,
      gasPrice: tx.gasPrice,
      maxFeePerGas: tx.maxFee,
      maxPriorityFeePerGas: tx.maxPriorityFee,
      effectiveGasPrice: tx.effectiveGasPrice,
      status: tx.status === 1 ? 'success' : 'reverted',
      input,
      decoded: to ? decodeInput(input, { nft: toKind === 721, using }) : null,
      logs: logs.map((log) => {
        const address = checksum(log.address)
        const topics = [log.topic0, log.topic1, log.topic2, log.topic3].filter((topic): topic is Uint8Array => topic !== null).map((topic) => hex(topic)!)
        const data = hex(log.data)!
        return { logIndex: log.logIndex, address, label: label(address), topics, data, event: decodeLog(topics, data, decoders(address)) }
      }),
      // Null when the node gave no traces for this transaction (the spool says so in its health).
      traces: trace ? [decodedTrace(trace, registry, decoders, reached)] : null,
      tokenTransfers: fungible.map((transfer) => tokenTransfer(transfer, tokenMeta, registry)),
      nftTransfers: transfers.filter((transfer) => transfer.kind !== 20).map((transfer) => nftTransfer(transfer, registry)),
      revertReason: await txRevertReason(tx, trace, explorer.node, using, reached),
    }
  }

  return new Elysia({ name: 'explorer-txs' })
    .get('/txs', ({ query }) => {
      const paging = page(query)
      return explorer.lists.answer(`txs:${paging.limit}:${paging.offset}`, async () => {
        const txs = latestTxs(db, paging)
        const name = await explorer.known.namer(txs.map((tx) => tx.to))
        return txs.map((tx) => txSummary(tx, registry, name))
      })
    })
    // A stored transaction changes only if a reorganisation drops it, so its answer is kept as
    // briefly as the address pages' (a few seconds) and a burst of views costs one read.
    // Keyed by the hash as parsed: a malformed one is refused whether or not a twin is cached.
    .get('/tx/:hash', ({ params }) => {
      const hash = parseHash(params.hash)
      if (!hash) throw new NotFoundError('unknown transaction')
      return explorer.answers.answer(`tx:${hash}`, () => detail(hash))
    })
}
