// What can go wrong with the spool's file itself (as opposed to the node): the file is damaged or
// not a database, it or its folder is read-only, the disk is full or failing. Said in plain words
// with what to do, once at start (one line, then exit 1) and while running (health and log).

import { FatalError } from '../errors.ts'

/** The spool's file cannot be used; the message is one line meant for the operator. */
export class SpoolFileError extends FatalError {
  override name = 'SpoolFileError'
}

/** A storage failure in plain words: what is wrong, and what the operator can do about it. */
export type StorageProblem = { code: string; problem: string; advice: string }

/**
 * Classifies an error from bun:sqlite (its `code` is the extended SQLite code name, such as
 * SQLITE_IOERR_WRITE) or from node:fs (EACCES, ENOSPC, ...) as a storage problem of the spool at
 * `path`; null for anything else, such as the node's errors.
 */
export function storageProblem(error: unknown, path: string): StorageProblem | null {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  const moveAway = `move it away (mv ${path} ${path}.damaged) and start again for a fresh spool`
  const permissions = 'make the file and its folder writable for the user running stack'
  const space = 'free some space on its disk'
  const found = (problem: string, advice: string): StorageProblem => ({ code, problem, advice })

  if (code === 'SQLITE_NOTADB') return found('it is not a SQLite database', moveAway)
  if (code.startsWith('SQLITE_CORRUPT')) return found('it is damaged (SQLite: database disk image is malformed)', moveAway)
  // SQLite writes spool.db-wal and spool.db-shm beside the file, so the folder must be writable too.
  if (code === 'SQLITE_READONLY_DIRECTORY') return found('its folder is read-only', permissions)
  if (code.startsWith('SQLITE_READONLY')) return found('it is read-only (the file or its folder)', permissions)
  if (code.startsWith('SQLITE_CANTOPEN')) return found('it cannot be opened', 'check that its folder exists and that the user running stack may write there')
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return found('the disk is full', space)
  // A write past a file-size limit (EFBIG) also comes back from SQLite as SQLITE_IOERR_WRITE.
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO' || code === 'EFBIG') {
    return found(`a disk read or write failed (${code}: the disk is full or failing, or a file-size limit was reached)`, `${space}, or check the disk`)
  }
  if (code === 'EACCES' || code === 'EPERM') return found('permission denied on it or its folder', permissions)
  if (code === 'EROFS') return found('it is on a read-only file system', 'give data.dir a folder on a writable disk')
  if (code === 'ENOTDIR' || code === 'EEXIST') return found('its folder path runs through a file', 'point data.dir at a folder')
  return null
}

/** The one line `stack start` prints before it exits 1. */
export function spoolFileError(path: string, { problem, advice }: StorageProblem): SpoolFileError {
  return new SpoolFileError(`the spool ${path} cannot be used: ${problem}; ${advice}`)
}

/** Turns a storage failure while opening the spool into a SpoolFileError; other errors pass through. */
export function asSpoolFileError(error: unknown, path: string): unknown {
  const problem = storageProblem(error, path)
  return problem ? spoolFileError(path, problem) : error
}

/** What the health and the log say while the spool cannot write. */
export function storageMessage(path: string, { problem, advice }: StorageProblem): string {
  return `the spool cannot write ${path}: ${problem}; ${advice}`
}

/**
 * Failures that last (a full disk, a stream pass that keeps failing), by source (the follower,
 * each stream): each is said when it starts or changes, and again every `repeatMs` while it
 * lasts, so that the log shows it is still going on rather than one line long scrolled away. The
 * storage failures of all sources are one line: a full disk fails the follower and every stream.
 */
export class LastingFailures {
  private readonly current = new Map<string, { message: string; storage: boolean }>()
  /** When each line was last said: by source, or under STORAGE for every storage failure. */
  private readonly said = new Map<string, { message: string; at: number }>()

  constructor(private readonly repeatMs: number) {}

  /** Records that `source` failed; true when the failure should be said now. */
  fail(source: string, message: string, storage: boolean, now = Date.now()): boolean {
    this.current.set(source, { message, storage })
    const key = storage ? STORAGE : source
    const last = this.said.get(key)
    if (last && last.message === message && now - last.at < this.repeatMs) return false
    this.said.set(key, { message, at: now })
    return true
  }

  /** `source` works again; gives what it was failing with, if it was. */
  clear(source: string): { message: string; storage: boolean } | undefined {
    const failure = this.current.get(source)
    this.current.delete(source)
    this.said.delete(source)
    if (this.storageError() === null) this.said.delete(STORAGE)
    return failure
  }

  message(source: string): string | null {
    return this.current.get(source)?.message ?? null
  }

  /** The first storage failure of any source, for the health; null when the spool can write. */
  storageError(): string | null {
    for (const failure of this.current.values()) if (failure.storage) return failure.message
    return null
  }
}

const STORAGE = '(storage)'
