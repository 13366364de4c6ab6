import { keccak256, type Hex } from 'viem'

// Code is handled as lower-case hex without 0x; offsets and lengths are in bytes, as the
// compiler's linkReferences and immutableReferences give them.

/** `{ start, length }` in bytes, as solc's linkReferences and immutableReferences write a place. */
export type ByteRange = { start: number; length: number }
/** solc's `evm.deployedBytecode.immutableReferences`: an AST id to the places its value fills. */
export type ImmutableReferences = Record<string, ByteRange[]>
/** solc's linkReferences: file to library name to the places its address fills. */
export type LinkReferences = Record<string, Record<string, ByteRange[]>>

export function bare(code: string): string {
  return (code.startsWith('0x') || code.startsWith('0X') ? code.slice(2) : code).toLowerCase()
}

export const withPrefix = (code: string): Hex => `0x${code}` as Hex

/** The bytes [start, start + length) of bare hex. */
export const slice = (code: string, { start, length }: ByteRange) => code.slice(start * 2, (start + length) * 2)

/** `code` with the bytes of `range` replaced by `bytes` (bare hex of the same length). */
export function put(code: string, range: ByteRange, bytes: string): string {
  return code.slice(0, range.start * 2) + bytes + code.slice((range.start + range.length) * 2)
}

/** `code` with the bytes of every range zeroed; a range past the end is cut at the end. */
export function zero(code: string, ranges: ByteRange[]): string {
  let out = code
  for (const range of ranges) {
    const start = Math.min(range.start * 2, out.length)
    const end = Math.min((range.start + range.length) * 2, out.length)
    out = out.slice(0, start) + '0'.repeat(end - start) + out.slice(end)
  }
  return out
}

/**
 * The CBOR metadata solc appends to code: its length is the code's last two bytes, and it opens
 * with a CBOR map (0xa1 to 0xbf). Null when the code ends otherwise (`appendCBOR: false`, other compilers).
 */
export function trailingAuxdata(code: string): ByteRange | null {
  const size = code.length / 2
  if (size < 2) return null
  const length = Number.parseInt(code.slice(-4), 16)
  const start = size - 2 - length
  if (length === 0 || start < 0) return null
  const first = Number.parseInt(code.slice(start * 2, start * 2 + 2), 16)
  if (first < 0xa1 || first > 0xbf) return null
  return { start, length: length + 2 }
}

/**
 * Every place of `code` that holds solc's metadata: the trailing CBOR, and each auxdata of the
 * compile (the metadata of contracts whose code this one carries, as a factory carries what it
 * creates) found at a byte boundary.
 */
export function auxdataRanges(code: string, auxdatas: Iterable<string>): ByteRange[] {
  const ranges = new Map<number, ByteRange>()
  const trailing = trailingAuxdata(code)
  if (trailing) ranges.set(trailing.start, trailing)
  for (const auxdata of new Set(auxdatas)) {
    if (auxdata.length === 0 || auxdata.length % 2 !== 0) continue
    for (let at = code.indexOf(auxdata); at !== -1; at = code.indexOf(auxdata, at + 1)) {
      if (at % 2 === 0 && !ranges.has(at / 2)) ranges.set(at / 2, { start: at / 2, length: auxdata.length / 2 })
    }
  }
  return [...ranges.values()].sort((a, b) => a.start - b.start)
}

/** The auxdata a compiled code ends with, as bare hex; null without one. */
export function auxdataOf(code: string): string | null {
  const range = trailingAuxdata(code)
  return range ? slice(code, range) : null
}

/** The places of a code that change from one deployment of it to the next, or with its metadata. */
export type RuntimeMask = { immutableReferences: ImmutableReferences; auxdata: ByteRange[] }

/**
 * A code with its immutables' bytes and its metadata zeroed: two addresses whose codes mask to
 * the same bytes run the same program (every pair a factory makes), whatever their constructors stored.
 */
export function maskRuntime(code: string, mask: Partial<RuntimeMask> = {}): Hex {
  const plain = bare(code)
  const immutables = Object.values(mask.immutableReferences ?? {}).flat()
  const auxdata = mask.auxdata ?? (trailingAuxdata(plain) ? [trailingAuxdata(plain)!] : [])
  return withPrefix(zero(plain, [...immutables, ...auxdata]))
}

/** keccak256 of `maskRuntime`: the key under which the same program is found at another address. */
export function maskedRuntimeHash(code: string, mask: Partial<RuntimeMask> = {}): Hex {
  return keccak256(maskRuntime(code, mask))
}
