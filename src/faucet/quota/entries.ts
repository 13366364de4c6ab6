/**
 * The lines of the quota journal, one JSON object a line. Each file starts with a checkpoint;
 * the lines after it are the reservations made since, and how each ended.
 */

/** The counters at the moment a file was started: enough to go on without any older file. */
export type Checkpoint = {
  type: 'checkpoint'
  version: 1
  at: string
  /** The UTC day the daily counters belong to. */
  day: string
  global: number
  clients: Record<string, number>
  addresses: Record<string, number>
  /** Drips committed over the faucet's life, never reset. */
  allTime: number
  /** Reservations made but not yet committed or rolled back, which a later line may settle. */
  open: string[]
}

/** A daily slot taken, before anything is signed. */
export type ReserveEntry = { type: 'reserve'; id: string; at: string; day: string; client: string; address: string }

/** A transaction hash came back: the drip counts towards the all-time total. */
export type CommitEntry = { type: 'commit'; id: string; hash: string }

/**
 * The attempt failed and gives its slot back. It repeats the day, client and address (and
 * whether it had been committed) so that it can be applied without the reserve line, which may
 * sit in an older file.
 */
export type RollbackEntry = { type: 'rollback'; id: string; day: string; client: string; address: string; committed: boolean }

export type JournalEntry = ReserveEntry | CommitEntry | RollbackEntry

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0
const isCounts = (value: unknown): value is Record<string, number> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isCount)

/** A checkpoint read back from a file, or null when the line is not one. */
export function parseCheckpoint(line: string): Checkpoint | null {
  const value = parseLine(line) as Partial<Checkpoint> | null
  if (value?.type !== 'checkpoint' || value.version !== 1 || typeof value.day !== 'string') return null
  if (!isCount(value.global) || !isCount(value.allTime) || !isCounts(value.clients) || !isCounts(value.addresses)) return null
  if (!Array.isArray(value.open) || !value.open.every((id) => typeof id === 'string')) return null
  return value as Checkpoint
}

/** An entry read back from a file, or null when the line is torn or not an entry. */
export function parseEntry(line: string): JournalEntry | null {
  const value = parseLine(line) as Record<string, unknown> | null
  if (!value || typeof value.id !== 'string') return null
  const strings = (...keys: string[]) => keys.every((key) => typeof value[key] === 'string')
  if (value.type === 'reserve' && strings('at', 'day', 'client', 'address')) return value as ReserveEntry
  if (value.type === 'commit' && strings('hash')) return value as CommitEntry
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
