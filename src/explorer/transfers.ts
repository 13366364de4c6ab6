import { decodeAbiParameters, toEventSelector } from 'viem'
import { blob, hex } from '../eth/bytes.ts'
import { uintDecimal } from '../eth/words.ts'
import type { SpoolLog } from '../spool/streams.ts'

/** The token standards a transfer log can belong to. */
export type TransferKind = 20 | 721 | 1155

/**
 * One token movement. A TransferBatch log holds several, numbered by `seq`; every other log
 * holds one (seq 0). Addresses are the 20 raw bytes, amounts and ids decimal strings, so rows go
 * into the spool without a round trip through hex.
 */
export type Transfer = {
  logIndex: number
  seq: number
  token: Uint8Array
  kind: TransferKind
  from: Uint8Array
  to: Uint8Array
  /** Decimal token id; null for ERC-20. */
  tokenId: string | null
  /** Decimal amount; 1 for an ERC-721 item. */
  amount: string
}

export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)')
export const TRANSFER_SINGLE_TOPIC = toEventSelector('TransferSingle(address,address,address,uint256,uint256)')
export const TRANSFER_BATCH_TOPIC = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])')

const TRANSFER = blob(TRANSFER_TOPIC)
const SINGLE = blob(TRANSFER_SINGLE_TOPIC)
const BATCH = blob(TRANSFER_BATCH_TOPIC)

/** A log in the spool's raw form (BLOB columns). */
export type RawLog = Pick<SpoolLog, 'logIndex' | 'address' | 'topic0' | 'topic1' | 'topic2' | 'topic3' | 'data'>

const equal = (a: Uint8Array | null, b: Uint8Array) => a !== null && a.length === b.length && Buffer.compare(a, b) === 0
/** The address in an indexed topic: its low 20 bytes. */
const topicAddress = (topic: Uint8Array) => topic.slice(12, 32)

/**
 * The token movements in a log, or none. ERC-20 and ERC-721 share the Transfer signature and
 * differ in where the amount sits: ERC-20 indexes two topics and puts the amount in the data,
 * ERC-721 indexes the token id as a third topic and has no data. Logs that fit neither are not
 * transfers (a contract may reuse the name with another layout).
 */
export function decodeTransfers(log: RawLog): Transfer[] {
  const { topic0, topic1, topic2, topic3, data, address, logIndex } = log
  if (equal(topic0, TRANSFER) && topic1 && topic2) {
    const base = { logIndex, seq: 0, token: address, from: topicAddress(topic1), to: topicAddress(topic2) }
    if (!topic3 && data.length === 32) return [{ ...base, kind: 20, tokenId: null, amount: uintDecimal(data, 0) }]
    if (topic3 && data.length === 0) return [{ ...base, kind: 721, tokenId: uintDecimal(topic3, 0), amount: '1' }]
    return []
  }
  if (equal(topic0, SINGLE) && topic2 && topic3 && data.length === 64) {
    return [{ logIndex, seq: 0, token: address, kind: 1155, from: topicAddress(topic2), to: topicAddress(topic3), tokenId: uintDecimal(data, 0), amount: uintDecimal(data, 1) }]
  }
  if (equal(topic0, BATCH) && topic2 && topic3) {
    let ids: readonly bigint[]
    let values: readonly bigint[]
    try {
      ;[ids, values] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], hex(data))
    } catch {
      return []
    }
    if (ids.length !== values.length) return []
    const from = topicAddress(topic2)
    const to = topicAddress(topic3)
    return ids.map((id, seq) => ({ logIndex, seq, token: address, kind: 1155 as const, from, to, tokenId: id.toString(), amount: values[seq]!.toString() }))
  }
  return []
}

/** Token ids are stored zero-padded to 78 digits (the width of 2^256), so text order is numeric order. */
export const TOKEN_ID_WIDTH = 78
export const tokenIdKey = (tokenId: string) => tokenId.padStart(TOKEN_ID_WIDTH, '0')
export const tokenIdFromKey = (key: string) => key.replace(/^0+(?=\d)/, '')

export const isZero = (address: Uint8Array) => address.every((byte) => byte === 0)
