/**
 * The lines of the quota journal, one JSON object a line. Each file starts with a checkpoint;
 * the lines after it are the reservations made since, and how each ended.
 */

/**
 * A reservation not yet settled: still before its transaction (`hash` null: nothing was sent),
 * or with a signed transaction whose fate the chain has not told yet.
 */
export type OpenReservation = { id: string; day: string; client: string; address: string; hash: string | null }

/** The counters at the moment a file was started: enough to go on without any older file. */
export type Checkpoint = {
  type: 'checkpoint'
  version: 2
  at: string
  /** The UTC day the daily counters belong to. */
  day: string
  global: number
  clients: Record<string, number>
  addresses: Record<string, number>
  /** Drips committed over the faucet's life, never reset. */
  allTime: number
  /** Reservations made but not yet settled, which a later line (or the chain, at a start) settles. */
  open: OpenReservation[]
}

/**
 * A checkpoint as read back. A file written before version 2 knows its open reservations only by
 * id, and in that version a transaction could be sent before its reservation was committed:
 * `legacyOpen` counts those (null for a version 2 file), which are then counted as spent.
 */
export type ReadCheckpoint = Checkpoint & { legacyOpen: number | null }

/** A daily slot taken, before anything is signed. */
export type ReserveEntry = { type: 'reserve'; id: string; at: string; day: string; client: string; address: string }

/**
 * The drip's transaction is signed: its hash is on disk before the transaction is sent, so a
 * reservation without a commit never reached the chain. From here the drip counts towards the
 * all-time total, until the chain says it did not land.
 */
export type CommitEntry = { type: 'commit'; id: string; hash: string }

/** The chain shows the drip's transaction succeeded: nothing is left to settle. */
export type ConfirmEntry = { type: 'confirm'; id: string }

/**
 * The attempt failed and gives its slot back. It repeats the day, client and address (and
 * whether it had been committed) so that it can be applied without the reserve line, which may
 * sit in an older file.
 */
export type RollbackEntry = { type: 'rollback'; id: string; day: string; client: string; address: string; committed: boolean }

export type JournalEntry = ReserveEntry | CommitEntry | ConfirmEntry | RollbackEntry

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0
const isCounts = (value: unknown): value is Record<string, number> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isCount)

const isString = (value: unknown): value is string => typeof value === 'string'

function isOpenReservation(value: unknown): value is OpenReservation {
  if (typeof value !== 'object' || value === null) return false
  const open = value as Record<string, unknown>
  return isString(open.id) && isString(open.day) && isString(open.client) && isString(open.address) && (open.hash === null || isString(open.hash))
}

/** A checkpoint read back from a file (version 2, or a version 1 one), or null when the line is not one. */
export function parseCheckpoint(line: string): ReadCheckpoint | null {
  const value = parseLine(line) as Record<string, unknown> | null
  if (value?.type !== 'checkpoint' || typeof value.day !== 'string' || typeof value.at !== 'string') return null
  if (!isCount(value.global) || !isCount(value.allTime) || !isCounts(value.clients) || !isCounts(value.addresses) || !Array.isArray(value.open)) return null
  const counters = { type: 'checkpoint', version: 2, at: value.at, day: value.day, global: value.global, clients: value.clients, addresses: value.addresses, allTime: value.allTime } as const
  if (value.version === 1 && value.open.every(isString)) return { ...counters, open: [], legacyOpen: value.open.length }
  if (value.version === 2 && value.open.every(isOpenReservation)) return { ...counters, open: value.open, legacyOpen: null }
  return null
}

/** An entry read back from a file, or null when the line is torn or not an entry. */
export function parseEntry(line: string): JournalEntry | null {
  const value = parseLine(line) as Record<string, unknown> | null
  if (!value || typeof value.id !== 'string') return null
  const strings = (...keys: string[]) => keys.every((key) => typeof value[key] === 'string')
  if (value.type === 'reserve' && strings('at', 'day', 'client', 'address')) return value as ReserveEntry
  if (value.type === 'commit' && strings('hash')) return value as CommitEntry
  if (value.type === 'confirm') return value as ConfirmEntry
  if (value.type === 'rollback' && strings('day', 'client', 'address') && typeof value.committed === 'boolean') return value as RollbackEntry
  return null
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line)
  } catch {
    return null
  }
}
