import type { Address, Hex } from 'viem'
import { checksum, checksumOrNull } from '../eth/address.ts'
import { hex } from '../eth/bytes.ts'
import { fee } from './format.ts'
import { tableNamer, type MethodNamer } from './known.ts'
import type { Probe } from './probes.ts'
import type { RankedAccount } from './read/tally.ts'
import type { ListedTransfer } from './read/transfers.ts'
import type { RegistryView } from './registryView.ts'
import type { Transfer } from './transfers.ts'
import type { BlockHeader, BlockSummary, Mini, TxSummary } from '../spool/read.ts'

// The row shapes every list shares, each made in one place from what the reads return. The block
// row and chart point are the API's documented shapes (docs/explorer.md); so is the summary.

export function blockRow(block: BlockSummary) {
  return { number: block.number, hash: hex(block.hash), timestamp: block.timestamp, gasUsed: block.gasUsed, txCount: block.txCount, miniCount: block.miniCount }
}

export function chartPoint(block: BlockHeader) {
  return { number: block.number, timestamp: block.timestamp, txCount: block.txCount, gasUsed: block.gasUsed }
}

export function miniRow(mini: Mini) {
  return { number: mini.number, blockNumber: mini.blockNumber, hash: hex(mini.hash), timestamp_us: mini.timestampUs, txCount: mini.txCount }
}

/** One line of a transaction list; `nameMethod` names its method (by the target's ABI where the list looked it up). */
export function txSummary(tx: TxSummary, registry: RegistryView, nameMethod: MethodNamer = tableNamer) {
  const from = checksum(tx.from)
  const to = checksumOrNull(tx.to)
  const selector = tx.selector?.length === 4 ? hex(tx.selector) : null
  return {
    hash: hex(tx.hash),
    blockNumber: tx.blockNumber,
    index: tx.index,
    timestamp: tx.timestamp,
    from,
    fromLabel: registry.labelName(from),
    to,
    toLabel: registry.labelName(to),
    created: checksumOrNull(tx.created),
    value: tx.value,
    method: tx.created ? 'create' : (nameMethod(tx.to, selector as Hex | null) ?? selector),
    success: tx.status === 1,
    gasUsed: tx.gasUsed,
    fee: fee(tx.gasUsed, tx.effectiveGasPrice),
  }
}

/** What every movement shows: where in its transaction, which contract, between whom. */
function movement(transfer: Transfer, registry: RegistryView) {
  const token = checksum(transfer.token)
  return {
    logIndex: transfer.logIndex,
    ...(transfer.kind === 1155 ? { batchIndex: transfer.seq } : {}),
    token,
    tokenLabel: registry.labelName(token),
    standard: `erc${transfer.kind}`,
    from: checksum(transfer.from),
    to: checksum(transfer.to),
  }
}

/** An NFT movement (ERC-721 or ERC-1155) as a transaction shows it. */
export function nftTransfer(transfer: Transfer, registry: RegistryView) {
  return { ...movement(transfer, registry), tokenId: transfer.tokenId, amount: transfer.amount }
}

/** The symbol and decimals of an ERC-20 as shown, and whether the registry lists it. */
export type TokenMeta = { symbol: string | null; decimals: number | null; verified: boolean }

/**
 * How a list or a transaction names its ERC-20s: the registry's symbol and decimals for a token
 * it lists, else those the token answered its probe with (`probed`, by lower-case address), else null.
 */
export function tokenMetaOf(registry: RegistryView, probed: ReadonlyMap<string, Probe | null>): (token: Address) => TokenMeta {
  return (token) => {
    const listed = registry.token(token)
    const probe = listed ? null : probed.get(token.toLowerCase())
    return { symbol: listed?.symbol ?? probe?.symbol ?? null, decimals: listed?.decimals ?? probe?.decimals ?? null, verified: listed !== null }
  }
}

/** An ERC-20 movement as a transaction shows it, with its token's symbol and decimals as `metaOf` gives them. */
export function tokenTransfer(transfer: Transfer, metaOf: (token: Address) => TokenMeta, registry: RegistryView) {
  const token = checksum(transfer.token)
  return { logIndex: transfer.logIndex, token, tokenLabel: registry.labelName(token), ...metaOf(token), from: checksum(transfer.from), to: checksum(transfer.to), value: transfer.amount }
}

/** No token probed: only the registry names tokens. */
const NO_PROBES: ReadonlyMap<string, Probe | null> = new Map()

/**
 * A token or NFT movement as lists show it; ERC-20 rows carry their token's symbol and decimals
 * as `metaOf` gives them (by default the registry's, null for a token it does not list).
 */
export function transferRow(transfer: ListedTransfer, registry: RegistryView, metaOf?: (token: Address) => TokenMeta) {
  const where = { txHash: hex(transfer.txHash), blockNumber: transfer.blockNumber, timestamp: transfer.timestamp }
  if (transfer.tokenId !== null) return { ...where, ...nftTransfer(transfer, registry) }
  const moved = movement(transfer, registry)
  const { symbol, decimals } = (metaOf ?? tokenMetaOf(registry, NO_PROBES))(moved.token)
  return { ...where, ...moved, value: transfer.amount, symbol, decimals }
}

/** One account of the accounts list (and of the overview's busiest). */
export function accountRow(account: RankedAccount, registry: RegistryView) {
  const address = checksum(account.address)
  return { address, label: registry.labelName(address), txCount: account.txCount, sent: account.sent, received: account.received, contract: account.contract }
}
