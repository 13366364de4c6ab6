import { bare, trailingAuxdata, type ImmutableReferences } from './bytecode.ts'

/**
 * The immutable references of a compiled runtime code whose compiler output is not at hand (an
 * npm package's artifact without its build info): solc leaves every immutable as a PUSH32 of
 * zeros in the runtime code it outputs, to be written by the constructor, and pushes a zero
 * constant with a short PUSH, never with 32 bytes of zeros. The opcodes are walked so that the
 * data of other PUSHes is not read as code; the metadata at the end is left out. A library's
 * code starts with a PUSH20 of zeros (its call protection) that its deployment fills with the
 * library's own address: that place is an immutable too.
 */
export function immutablePlaceholders(runtime: string): ImmutableReferences {
  const code = bare(runtime)
  const end = trailingAuxdata(code)?.start ?? code.length / 2
  const zeros = '0'.repeat(64)
  const spots: Array<{ start: number; length: number }> = []
  if (code.startsWith(`73${'0'.repeat(40)}`)) spots.push({ start: 1, length: 20 })
  for (let at = 0; at < end; at++) {
    const op = Number.parseInt(code.slice(at * 2, at * 2 + 2), 16)
    if (op < 0x60 || op > 0x7f) continue
    if (op === 0x7f && at + 33 <= end && code.slice((at + 1) * 2, (at + 33) * 2) === zeros) spots.push({ start: at + 1, length: 32 })
    at += op - 0x5f
  }
  return spots.length === 0 ? {} : { placeholders: spots }
}
