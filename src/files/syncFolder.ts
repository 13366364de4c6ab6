import { closeSync, fsyncSync, openSync } from 'node:fs'

/**
 * Makes the folder's entries durable: after a rename or a new file, the name only survives a
 * power cut once the folder itself is synced (fsync of the file covers its bytes, not its name).
 */
export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
