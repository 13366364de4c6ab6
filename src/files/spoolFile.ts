import { statSync } from 'node:fs'
import { join } from 'node:path'

/** The spool's SQLite file in the data folder; its write-ahead log sits beside it (`-wal`). */
export const SPOOL_FILE = 'spool.db'

/** What the spool takes on disk: its file and its write-ahead log, in bytes (0 for one that is not there). */
export type SpoolSize = { path: string; bytes: number; fileBytes: number; walBytes: number }

export function spoolSize(dataDir: string): SpoolSize {
  const path = join(dataDir, SPOOL_FILE)
  const size = (file: string) => {
    try {
      return statSync(file).size
    } catch {
      return 0
    }
  }
  const fileBytes = size(path)
  const walBytes = size(`${path}-wal`)
  return { path, bytes: fileBytes + walBytes, fileBytes, walBytes }
}
