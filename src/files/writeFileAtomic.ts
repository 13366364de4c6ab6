import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { syncFolder } from './syncFolder.ts'

/**
 * Writes a file so that a reader, a process killed mid-write, or a power cut only ever leaves
 * the old content or the new one: write a temporary file beside it and fsync it, rename it into
 * place, then fsync the folder so that the rename itself is on disk. Without the first fsync the
 * rename can reach the disk before the bytes (an empty file after a power cut); without the
 * second, the old name can come back. A failed write leaves no temporary file behind.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const folder = dirname(path)
  mkdirSync(folder, { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeDurably(temporary, data)
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  syncFolder(folder)
}

/** Writes the whole of `data` to a new file and waits until the disk has it. */
function writeDurably(path: string, data: string | Uint8Array): void {
  const fd = openSync(path, 'w')
  try {
    writeFileSync(fd, data)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
