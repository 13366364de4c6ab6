import { keccak256, type Hex } from 'viem'

/** Where the compiler put an immutable's value in the runtime code: byte offsets and lengths, by the immutable's AST id. */
export type ImmutableReferences = Record<string, Array<{ start: number; length: number }>>

/**
 * The length in bytes of the CBOR metadata solc appends to runtime code (with its two-byte
 * length), or 0 when the code does not end in one. The last two bytes give the CBOR's length;
 * it is taken as metadata only when that many bytes fit and start a CBOR map (0xa1 to 0xa7),
 * which every solc since 0.4.7 writes (`ipfs`/`bzzr0`/`bzzr1` and `solc`, or `solc` alone
 * when the metadata hash is off).
 */
export function metadataLength(code: Uint8Array): number {
  if (code.length < 2) return 0
  const cbor = (code[code.length - 2]! << 8) | code[code.length - 1]!
  if (cbor === 0 || cbor + 2 > code.length) return 0
  const first = code[code.length - 2 - cbor]!
  return first >= 0xa1 && first <= 0xa7 ? cbor + 2 : 0
}

/**
 * The runtime code with every immutable's bytes and the CBOR metadata zeroed: what is equal
 * between two deployments of the same compiled contract whatever their constructor set, and
 * between two compiles of the same source whatever their metadata (paths, comments).
 * References that do not fit inside the code are ignored: they belong to another code.
 */
export function maskRuntime(code: Uint8Array, immutableReferences: ImmutableReferences = {}): Uint8Array {
  const masked = Uint8Array.from(code) // a copy: slice() of a Buffer is a view
  for (const spots of Object.values(immutableReferences)) {
    for (const { start, length } of spots) {
      if (start >= 0 && length > 0 && start + length <= masked.length) masked.fill(0, start, start + length)
    }
  }
  const metadata = metadataLength(masked)
  if (metadata > 0) masked.fill(0, masked.length - metadata)
  return masked
}

/** keccak of the masked runtime code: the key by which the same code is found under other addresses. */
export function maskedRuntimeHash(code: Uint8Array | Hex, immutableReferences: ImmutableReferences = {}): Hex {
  return keccak256(maskRuntime(typeof code === 'string' ? hexBytes(code) : code, immutableReferences))
}

/** Whether `references` all fit inside a code of `length` bytes (a code shorter than them is another contract's). */
export function referencesFit(references: ImmutableReferences, length: number): boolean {
  return Object.values(references).every((spots) => spots.every(({ start, length: size }) => start + size <= length))
}

function hexBytes(code: Hex): Uint8Array {
  return Buffer.from(code.startsWith('0x') ? code.slice(2) : code, 'hex')
}
