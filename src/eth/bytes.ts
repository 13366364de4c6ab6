import type { Hex } from 'viem'

/**
 * 0x-hex (or bare hex digits) as bytes, for a BLOB column of the spool. Text that is not hex
 * (an odd length, another character) throws rather than turning into other bytes. (The standard
 * Uint8Array.fromHex takes a third of the time Buffer.from(text, 'hex') does, which counts at ten
 * fields a transaction.)
 */
export function blob(text: string): Uint8Array {
  return Uint8Array.fromHex(text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text)
}

/** A BLOB as lower-case 0x-hex; null stays null. */
export function hex(bytes: Uint8Array): Hex
export function hex(bytes: Uint8Array | null | undefined): Hex | null
export function hex(bytes: Uint8Array | null | undefined): Hex | null {
  return bytes ? (`0x${bytes.toHex()}` as Hex) : null
}

const HASH = /^0[xX][0-9a-fA-F]{64}$/

/**
 * A 32-byte hash (of a transaction, a block) as a caller wrote it, in lower case; null when it is
 * not one. The prefix is read as an address's is: `0x` or `0X`.
 */
export function parseHash(text: unknown): Hex | null {
  return typeof text === 'string' && HASH.test(text) ? (text.toLowerCase() as Hex) : null
}
