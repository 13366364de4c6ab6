// Reading ABI-encoded event fields straight from the spool's BLOB columns. The derived streams
// decode hundreds of thousands of logs, so this stays at the level of bytes rather than going
// through a generic ABI decoder.

const TWO_256 = 1n << 256n
const TWO_255 = 1n << 255n

/** A BLOB (or part of one) as lower-case hex without 0x. */
export function hexOf(bytes: Uint8Array, start = 0, end = bytes.length): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('hex')
}

/** The `index`-th 32-byte word of event data as an unsigned integer. */
export function uint(data: Uint8Array, index: number): bigint {
  return BigInt(`0x${hexOf(data, index * 32, index * 32 + 32) || '0'}`)
}

/** The `index`-th word as a two's-complement signed integer (int256, int24 alike: sign-extended). */
export function int(data: Uint8Array, index: number): bigint {
  const value = uint(data, index)
  return value >= TWO_255 ? value - TWO_256 : value
}

/** A small signed word (int24 ticks) as a number. */
export function smallInt(data: Uint8Array, index: number): number {
  return Number(int(data, index))
}

/** The address in the `index`-th word (its last 20 bytes), as bytes for a BLOB column. */
export function addressWord(data: Uint8Array, index: number): Uint8Array {
  return Buffer.from(data.subarray(index * 32 + 12, index * 32 + 32))
}

/** The address in an indexed topic. */
export function addressTopic(topic: Uint8Array | null): Uint8Array {
  if (!topic) throw new Error('an indexed address is missing from the log')
  return Buffer.from(topic.subarray(12, 32))
}

/** A signed integer in an indexed topic (int24 ticks, uint24 fees). */
export function intTopic(topic: Uint8Array | null): number {
  if (!topic) throw new Error('an indexed integer is missing from the log')
  return smallInt(topic, 0)
}
