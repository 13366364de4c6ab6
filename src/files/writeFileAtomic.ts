import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Writes a file so that a reader, or a process killed mid-write, only ever sees the old
 * content or the new one: write a temporary file beside it, then rename it into place.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, data)
  renameSync(temporary, path)
}
