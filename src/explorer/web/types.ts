// The shapes of the explorer API's answers that the pages read (docs/explorer.md lists the fields).
import type { RevertWords } from '../../answers/contract.ts'

export type Stats = {
  latestBlock?: number
  indexedBlock?: number
  indexLag?: number
  transactions?: number
  wallets?: number
  contracts?: number
  tokens?: number
  blockTimeMs?: number | null
  gasPrice?: string | null
  [key: string]: unknown
}

export type ChartPoint = { number: number; timestamp: number; txCount: number; gasUsed: number }

export type BlockRow = { number: number; hash: string; timestamp: number; gasUsed: number; txCount: number; miniCount: number }

export type MiniRow = { number: number; blockNumber: number; hash: string; timestamp_us: number; txCount: number }

export type TxRow = {
  hash: string
  blockNumber: number
  index: number
  timestamp: number
  from: string
  fromLabel: string | null
  to: string | null
  toLabel: string | null
  created: string | null
  value: string
  method: string | null
  success: boolean
  gasUsed: number
  fee: string
}

export type AccountRow = { address: string; label: string | null; txCount: number; sent: number; received: number; contract: boolean }

export type Label = { name: string; category?: string; project?: string } | null

export type DecodedValue = string | number | boolean | null | DecodedValue[] | { [key: string]: DecodedValue }

export type TxLog = {
  logIndex: number
  address: string
  label: Label
  topics: string[]
  data: string
  event: { name: string; signature: string; args: Record<string, DecodedValue>; types?: Record<string, string> } | null
  /** A token's event: its symbol and decimals, and the arguments that are amounts in its units. */
  units?: { symbol: string | null; decimals: number; args: string[] } | null
}

export type CallFrame = {
  type: string
  from: string
  to: string | null
  toLabel?: string | null
  value: string | null
  gas: number | null
  gasUsed: number | null
  method?: string | null
  input: string
  output: string | null
  error: string | null
  calls: CallFrame[]
}

export type TokenTransfer = {
  logIndex: number
  token: string
  tokenLabel: string | null
  symbol?: string | null
  decimals?: number | null
  verified?: boolean
  from: string
  to: string
  value: string
}

export type NftTransfer = { logIndex: number; token: string; tokenLabel: string | null; standard: string; from: string; to: string; tokenId: string; amount: string }

export type DecodedArg = { name: string; type: string; value: DecodedValue }

export type TxDetail = TxRow & {
  blockHash: string
  nonce: number
  type: number
  gas: number
  gasPrice: string | null
  maxFeePerGas: string | null
  maxPriorityFeePerGas: string | null
  effectiveGasPrice: string | null
  baseFeePerGas: string | null
  priorityFeePerGas: string | null
  burntFee: string | null
  previousTx: { hash: string; nonce: number } | null
  nextTx: { hash: string; nonce: number } | null
  status: string
  input: string
  decoded: { name: string; signature: string; selector: string; args: DecodedArg[] } | null
  logs: TxLog[]
  traces: CallFrame[] | null
  tokenTransfers: TokenTransfer[]
  nftTransfers: NftTransfer[]
  /** Why a failed transaction failed, in words; null when it succeeded or nothing says. */
  revertReason: RevertWords | null
}

/** `/api/tx/{hash}/state`: what a transaction changed. */
export type TxState = {
  hash: string
  tokens: Array<{ token: string; tokenLabel: string | null; symbol: string | null; decimals: number | null; verified: boolean; holder: string; holderLabel: string | null; change: string }>
  accounts: AccountChange[] | null
  /** Why `accounts` is null: the node has no state trace, cannot be reached, or failed. */
  accountsMissing: 'unsupported' | 'unreachable' | 'failed' | null
  truncated: boolean
}

export type AccountChange = {
  address: string
  label: string | null
  balance: { before: string; after: string } | null
  nonce: { before: number; after: number } | null
  codeSize: { before: number; after: number } | null
  storage: Array<{ slot: string; before: string; after: string }>
}
