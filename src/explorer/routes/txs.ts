import { Elysia } from 'elysia'
import type { Address, Hex } from 'viem'
import { NotFoundError } from '../../errors.ts'
import { decodeInput, decodeLog, methodName } from '../../decode/decode.ts'
import type { Explorer } from '../explorer.ts'
import { checksum, checksumOrNull } from '../../eth/address.ts'
import { blob, hex, parseHash } from '../../eth/bytes.ts'
import { fee } from '../format.ts'
import { page } from '../paging.ts'
import { TOKEN_META_AGE_MS } from '../probes.ts'
import { tokenKind } from '../read/tokens.ts'
import { nftTransfer, tokenMetaOf, tokenTransfer, txSummary, type TokenMeta } from '../rows.ts'
import { decodeTransfers } from '../transfers.ts'
import { abisOf, decodedTrace, framesOf, txRevertReason } from '../txDecoding.ts'
import { blockByNumber, latestTxs, senderNeighbours, txByHash, txLogs, txTrace } from '../../spool/read.ts'
import { accountChanges, tokenChanges, tracedState } from '../txState.ts'

/** `/txs` (newest first, no total) and `/tx/{hash}`, the full transaction. */
export function txRoutes(explorer: Explorer) {
  const { db, registry } = explorer
  const label = (address: string | null) => (address === null ? null : registry.label(address))

  const detail = async (hash: Hex) => {
    const tx = await txByHash(db, blob(hash))
    if (!tx) throw new NotFoundError('unknown transaction')

    const logs = await txLogs(db, tx.id)
    const trace = await txTrace(db, tx.id)
    const to = checksumOrNull(tx.to)
    const toKind = tx.to ? await tokenKind(db, tx.to) : null
    // What the contract book knows of every contract the transaction reached, one lookup each.
    const frames = trace ? framesOf(trace) : []
    const reachedAddresses = [tx.to, ...logs.map((log) => log.address), ...frames.map((frame) => frame.to)]
    const decoders = await explorer.known.decoders(reachedAddresses)
    const reached = abisOf(reachedAddresses.map(decoders))
    const using = decoders(tx.to)

    const transfers = logs.flatMap(decodeTransfers)
    const fungible = transfers.filter((transfer) => transfer.kind === 20)
    // The ERC-20 tokens among the logs' emitters: those that moved, and those the index knows
    // as ERC-20 (a token's Approval alone moves nothing).
    const emitters = [...new Set(logs.map((log) => checksum(log.address)))]
    const fungibleTokens = new Set([
      ...fungible.map((transfer) => checksum(transfer.token)),
      ...(await Promise.all(emitters.map(async (address) => ((await tokenKind(db, blob(address))) === 20 ? [address] : [])))).flat(),
    ])
    // Unlisted tokens are named by asking them (one batch, remembered for a minute); with the
    // node away their symbol and decimals are null.
    const unlisted = [...fungibleTokens].filter((token) => !registry.token(token))
    const tokenMeta = tokenMetaOf(registry, await explorer.probes.probe(unlisted as Address[], TOKEN_META_AGE_MS))
    const block = await blockByNumber(db, tx.blockNumber)
    const baseFee = block?.baseFee ?? null
    const { previous, next } = await senderNeighbours(db, tx.from, tx.id)
    const neighbour = (found: { hash: Uint8Array; nonce: number } | null) => (found ? { hash: hex(found.hash), nonce: found.nonce } : null)

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
      ...gasParts(tx.effectiveGasPrice, baseFee, tx.gasUsed),
      previousTx: neighbour(previous),
      nextTx: neighbour(next),
      status: tx.status === 1 ? 'success' : 'reverted',
      input,
      decoded: to ? decodeInput(input, { nft: toKind === 721, using }) : null,
      logs: logs.map((log) => {
        const address = checksum(log.address)
        const topics = [log.topic0, log.topic1, log.topic2, log.topic3].filter((topic): topic is Uint8Array => topic !== null).map((topic) => hex(topic)!)
        const data = hex(log.data)!
        const event = decodeLog(topics, data, decoders(address))
        return { logIndex: log.logIndex, address, label: label(address), topics, data, event, units: fungibleTokens.has(address) ? logUnits(event, tokenMeta(address)) : null }
      }),
      // Null when the node gave no traces for this transaction (the spool says so in its health).
      traces: trace ? [decodedTrace(trace, registry, decoders, reached)] : null,
      tokenTransfers: fungible.map((transfer) => tokenTransfer(transfer, tokenMeta, registry)),
      nftTransfers: transfers.filter((transfer) => transfer.kind !== 20).map((transfer) => nftTransfer(transfer, registry)),
      revertReason: await txRevertReason(tx, trace, explorer.node, using, reached),
    }
  }

  /** What the transaction changed (docs/explorer.md, "A transaction's state changes"). */
  const state = async (hash: Hex) => {
    const tx = await txByHash(db, blob(hash))
    if (!tx) throw new NotFoundError('unknown transaction')
    const fungible = (await txLogs(db, tx.id)).flatMap(decodeTransfers).filter((transfer) => transfer.kind === 20)
    const unlisted = [...new Set(fungible.map((transfer) => checksum(transfer.token)))].filter((token) => !registry.token(token))
    const tokenMeta = tokenMetaOf(registry, await explorer.probes.probe(unlisted as Address[], TOKEN_META_AGE_MS))
    // The node's own reads (callNode), so that a long trace does not make the pages' reads skip the node.
    const traced = await tracedState(explorer.callNode, hash)
    let accounts = null
    let truncated = false
    let missing = 'missing' in traced ? traced.missing : null
    if ('diff' in traced) {
      try {
        ;({ accounts, truncated } = accountChanges(traced.diff, registry))
      } catch {
        missing = 'failed' // an answer that is not a prestate trace
      }
    }
    return { hash: hex(tx.hash), tokens: tokenChanges(fungible, tokenMeta, registry), accounts, accountsMissing: missing, truncated }
  }

  return (
    new Elysia({ name: 'explorer-txs' })
      .get('/txs', ({ query }) => {
        const paging = page(query)
        return explorer.lists.answer(`txs:${paging.limit}:${paging.offset}`, async () => {
          const txs = await latestTxs(db, paging)
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
      // A mined transaction's changes are fixed; the node's answer is kept as briefly as the transaction's.
      .get('/tx/:hash/state', ({ params }) => {
        const hash = parseHash(params.hash)
        if (!hash) throw new NotFoundError('unknown transaction')
        return explorer.answers.answer(`tx-state:${hash}`, () => state(hash))
      })
  )
}

/**
 * The fee's parts under EIP-1559: the block's base fee per gas, the part of the price above it
 * (the priority fee the block's producer got) and the fee burnt (base fee × gas used), in wei as
 * decimal strings; null where the block has no base fee.
 */
function gasParts(effectiveGasPrice: string | null, baseFee: string | null, gasUsed: number) {
  const priority = effectiveGasPrice !== null && baseFee !== null ? (BigInt(effectiveGasPrice) - BigInt(baseFee)).toString() : null
  return { baseFeePerGas: baseFee, priorityFeePerGas: priority, burntFee: baseFee === null ? null : fee(gasUsed, baseFee) }
}

/**
 * The events whose amounts are in the emitting token's own units: ERC-20's and WETH's. Other
 * events of a token are not (an exchange pair is an ERC-20 too, and its Swap counts two other tokens).
 */
const TOKEN_EVENTS = new Set(['Transfer(address,address,uint256)', 'Approval(address,address,uint256)', 'Deposit(address,uint256)', 'Withdrawal(address,uint256)'])

/**
 * How a token's event reads in the token's units: its symbol and decimals, and the arguments that
 * are amounts (its 256-bit integers); null for another event, or when the decimals are unknown.
 */
function logUnits(event: { signature: string; types: Record<string, string> } | null, meta: TokenMeta) {
  if (!event || !TOKEN_EVENTS.has(event.signature) || meta.decimals === null) return null
  const args = Object.entries(event.types)
    .filter(([, type]) => type === 'uint256')
    .map(([name]) => name)
  return args.length === 0 ? null : { symbol: meta.symbol, decimals: meta.decimals, args }
}
