// Reading ABI-encoded event fields straight from the spool's BLOB columns. The derived streams
// decode hundreds of thousands of logs, so this stays at the level of bytes rather than going
// through a generic ABI decoder, and takes the short way for the small values most words hold.
// (A BLOB comes out of SQLite as a Uint8Array without an ArrayBuffer of its own; asking for one,
// as `.buffer`, Buffer.from(buffer, offset) and `.subarray` do, costs more than the decoding, so
// parts are read in place, or copied out with `.slice`.)

/** Values of up to six bytes are exact as numbers. */
const SMALL_BYTES = 6

const hexRange = Buffer.prototype.toString

/** A BLOB (or part of one) as lower-case hex without 0x. */
export function hexOf(bytes: Uint8Array, start = 0, end = bytes.length): string {
  return start === 0 && end === bytes.length ? bytes.toHex() : hexRange.call(bytes, 'hex', start, end)
}

/** The first byte of `bytes[start, end)` that is not zero, or `end`. */
function firstNonZero(bytes: Uint8Array, start: number, end: number): number {
  let index = start
  while (index < end && bytes[index] === 0) index++
  return index
}

/** Big-endian bytes `[start, end)`, at most six of them, as a number. */
function smallValue(bytes: Uint8Array, start: number, end: number): number {
  let value = 0
  for (let index = start; index < end; index++) value = value * 256 + bytes[index]!
  return value
}

/** Whether big-endian bytes `[first, end)`, read by `read`, are below 2^53 (a number holds them exactly). `first` is not a zero. */
function fitsNumber(bytes: Uint8Array, first: number, end: number, read = smallValue): boolean {
  return end - first <= SMALL_BYTES || (end - first === SMALL_BYTES + 1 && read(bytes, first, first + 1) < 0x20)
}

/** The same bytes each turned over (255 - b): a negative word's magnitude, less one. */
function smallComplement(bytes: Uint8Array, start: number, end: number): number {
  let value = 0
  for (let index = start; index < end; index++) value = value * 256 + (255 - bytes[index]!)
  return value
}

/**
 * Big-endian bytes `[first, end)` as a bigint, from numbers of six bytes each: a hex string
 * parsed by BigInt costs about twice as much for the amounts and prices events carry. Bytes that
 * fit a number exactly (below 2^53) take one conversion. `read` is smallValue or smallComplement.
 */
function bigValue(bytes: Uint8Array, first: number, end: number, read: typeof smallValue): bigint {
  if (fitsNumber(bytes, first, end, read)) return BigInt(read(bytes, first, end))
  const head = (end - first) % SMALL_BYTES || SMALL_BYTES
  let value = BigInt(read(bytes, first, first + head))
  for (let at = first + head; at < end; at += SMALL_BYTES) value = (value << 48n) | BigInt(read(bytes, at, at + SMALL_BYTES))
  return value
}

/** The `index`-th 32-byte word of event data as an unsigned integer (a word past the data's end reads as zero). */
export function uint(data: Uint8Array, index: number): bigint {
  const end = index * 32 + 32
  if (end > data.length) return 0n
  return bigValue(data, firstNonZero(data, index * 32, end), end, smallValue)
}

/** The `index`-th word as a two's-complement signed integer (int256, int24 alike: sign-extended). */
export function int(data: Uint8Array, index: number): bigint {
  const start = index * 32
  const end = start + 32
  if (end > data.length) return 0n
  if (data[start]! < 0x80) return bigValue(data, firstNonZero(data, start, end), end, smallValue)
  // Negative: minus (the bytes turned over, plus one); leading 0xff bytes turn over to zeros.
  let first = start
  while (first < end && data[first] === 0xff) first++
  return -(bigValue(data, first, end, smallComplement) + 1n)
}

/** The `index`-th word as a decimal string: the unsigned integer, without a BigInt when it is small. */
export function uintDecimal(data: Uint8Array, index: number): string {
  const end = index * 32 + 32
  if (end > data.length) return '0'
  const first = firstNonZero(data, index * 32, end)
  return fitsNumber(data, first, end) ? String(smallValue(data, first, end)) : uint(data, index).toString()
}

/**
 * A small signed word (int24 ticks, uint24 fees) as a number. A word whose first 26 bytes are
 * all the sign's (0x00 or 0xff) holds a value of six bytes, read as it is; any other is a value
 * too large for a number to hold exactly, converted as well as a number can.
 */
export function smallInt(data: Uint8Array, index: number): number {
  const start = index * 32
  const end = start + 32
  if (end > data.length) return 0
  const sign = data[start] === 0xff ? 0xff : 0
  const tail = end - SMALL_BYTES
  let at = start
  while (at < tail && data[at] === sign) at++
  const negative = (data[tail]! & 0x80) !== 0
  if (at === tail && negative === (sign === 0xff)) {
    const value = smallValue(data, tail, end)
    return sign === 0 ? value : value - 2 ** 48
  }
  return Number(int(data, index))
}

/**
 * The first four bytes of a topic as a number (0 when there is none): a stream tells the events
 * it reads apart by them without turning 32 bytes into a string. Only the stream's own
 * signatures reach it (the spool selects them whole), so four bytes that differ among those
 * suffice; events.ts checks that they do.
 */
export function selectorOf(topic: Uint8Array | null): number {
  return topic === null ? 0 : ((topic[0]! << 24) | (topic[1]! << 16) | (topic[2]! << 8) | topic[3]!) >>> 0
}

/** The address in the `index`-th word (its last 20 bytes), as bytes for a BLOB column. */
export function addressWord(data: Uint8Array, index: number): Uint8Array {
  return data.slice(index * 32 + 12, index * 32 + 32)
}

/** The address in an indexed topic. */
export function addressTopic(topic: Uint8Array | null): Uint8Array {
  if (!topic) throw new Error('an indexed address is missing from the log')
  return topic.slice(12, 32)
}

/** A signed integer in an indexed topic (int24 ticks, uint24 fees). */
export function intTopic(topic: Uint8Array | null): number {
  if (!topic) throw new Error('an indexed integer is missing from the log')
  return smallInt(topic, 0)
}
