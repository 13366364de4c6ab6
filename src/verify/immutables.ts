import { metadataLength, type ImmutableReferences } from './mask.ts'

/**
 * The immutable references of a compiled runtime code whose compiler output is not at hand (an
 * npm package's artifact without its build info): solc leaves every immutable as a PUSH32 of
 * zeros in the runtime code it outputs, to be written by the constructor, and pushes a zero
 * constant with a short PUSH, never with 32 bytes of zeros. The opcodes are walked so that the
 * data of other PUSHes is not read as code; the metadata at the end is left out.
 */
export function immutablePlaceholders(runtime: Uint8Array): ImmutableReferences {
  const end = runtime.length - metadataLength(runtime)
  const spots: Array<{ start: number; length: number }> = []
  for (let at = 0; at < end; at++) {
    const op = runtime[at]!
    if (op < 0x60 || op > 0x7f) continue
    const size = op - 0x5f
    if (op === 0x7f && at + 33 <= end && runtime.subarray(at + 1, at + 33).every((byte) => byte === 0)) spots.push({ start: at + 1, length: 32 })
    at += size
  }
  return spots.length === 0 ? {} : { placeholders: spots }
}
