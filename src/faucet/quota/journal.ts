import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../../files/writeFileAtomic.ts'
import type { Logger } from '../../log.ts'
import { utcDay } from './day.ts'
import { parseCheckpoint, parseEntry, type Checkpoint, type JournalEntry } from './entries.ts'
import { Tally } from './tally.ts'

export type JournalOptions = {
  /** The folder of journal files, created when missing. */
  dir: string
  /** A file that reaches this many bytes is followed by a new one. */
  maxBytes: number
  /** A file older than this many milliseconds is followed by a new one. */
  maxAgeMs: number
  /** Milliseconds since the epoch; injectable so tests can move the day. */
  clock: () => number
  log?: Logger
}

/** What the start found on disk. */
export type JournalRecovery = {
  /** The file whose checkpoint the counters were rebuilt from, or null for a first start. */
  from: string | null
  /** Lines replayed after that checkpoint. */
  replayed: number
  /** Lines that could not be read (a write torn by a crash). */
  skipped: number
  /**
   * Files the journal had written that are gone (the head names a newer file than any found):
   * their drips are missing from the counters until the chain gives them back.
   */
  missingFiles: number
}

/** Only the newest files are kept: the newest checkpoint is enough, the older ones are for reading. */
const KEEP_FILES = 3
const FILE = /^journal-(\d{8})\.jsonl$/
const fileName = (sequence: number) => `journal-${String(sequence).padStart(8, '0')}.jsonl`
/** The sequence of the newest file ever started, so that a file removed from the end is noticed. */
const HEAD = 'HEAD'

/**
 * The quota journal: an append-only file of JSON lines under the data folder. Each file begins
 * with a checkpoint of the counters, so the newest checkpoint plus the lines after it is the
 * whole state, and older files can go. Writes are synchronous (a reservation is on disk before
 * the event loop moves on) and those that protect money are fsynced.
 */
export class Journal {
  private fd: number
  private bytes: number
  private startedAt: number

  private constructor(
    private readonly options: JournalOptions,
    private sequence: number,
    checkpoint: Checkpoint,
  ) {
    ;({ fd: this.fd, bytes: this.bytes } = this.startFile(sequence, checkpoint))
    this.startedAt = options.clock()
  }

  /**
   * Rebuilds the counters from the newest checkpoint and the lines after it, then starts a new
   * file whose checkpoint holds them: a line torn by a crash is left behind in the old file,
   * never appended to.
   */
  static open(options: JournalOptions): { journal: Journal; tally: Tally; recovery: JournalRecovery } {
    mkdirSync(options.dir, { recursive: true })
    const today = utcDay(options.clock())
    const { tally, recovery, lastSequence } = recover(options.dir, today, options.log)
    const journal = new Journal(options, lastSequence + 1, tally.checkpoint(options.clock()))
    journal.prune()
    return { journal, tally, recovery }
  }

  /** The file being appended to. */
  get path(): string {
    return join(this.options.dir, fileName(this.sequence))
  }

  /** Appends one line; with `durable`, returns only once the line is on the disk. */
  append(entry: JournalEntry, durable: boolean): void {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`)
    writeAll(this.fd, line)
    if (durable) fsyncSync(this.fd)
    this.bytes += line.byteLength
  }

  shouldRotate(): boolean {
    return this.bytes >= this.options.maxBytes || this.options.clock() - this.startedAt >= this.options.maxAgeMs
  }

  /** Starts the next file with `checkpoint` at its head and drops files no longer needed. */
  rotate(checkpoint: Checkpoint): void {
    const next = this.startFile(this.sequence + 1, checkpoint)
    closeSync(this.fd)
    this.sequence++
    ;({ fd: this.fd, bytes: this.bytes } = next)
    this.startedAt = this.options.clock()
    this.prune()
  }

  close(): void {
    closeSync(this.fd)
  }

  /**
   * The checkpoint is written as a whole new file (temporary, fsynced, renamed, the folder
   * fsynced: writeFileAtomic), then HEAD names it, and only then are lines appended to it.
   */
  private startFile(sequence: number, checkpoint: Checkpoint): { fd: number; bytes: number } {
    const path = join(this.options.dir, fileName(sequence))
    const head = Buffer.from(`${JSON.stringify(checkpoint)}\n`)
    writeFileAtomic(path, head)
    writeFileAtomic(join(this.options.dir, HEAD), `${sequence}\n`)
    return { fd: openSync(path, 'a'), bytes: head.byteLength }
  }

  private prune(): void {
    for (const { name, sequence } of listFiles(this.options.dir)) {
      if (sequence <= this.sequence - KEEP_FILES) rmSync(join(this.options.dir, name), { force: true })
    }
  }
}

function recover(dir: string, today: string, log?: Logger): { tally: Tally; recovery: JournalRecovery; lastSequence: number } {
  const files = listFiles(dir).sort((a, b) => b.sequence - a.sequence)
  const newest = files[0]?.sequence ?? 0
  const head = readHead(dir)
  // Numbers are never reused: the next file follows the newest the journal ever started.
  const lastSequence = Math.max(newest, head ?? 0)
  const missingFiles = head !== null && head > newest ? head - newest : 0
  if (missingFiles > 0) {
    log?.error(
      { dir, head: fileName(head!), newest: files[0] ? fileName(newest) : null, missingFiles },
      'quota journal files are missing: drips they counted would be forgotten; the counts are rebuilt from the chain once the spool holds it',
    )
  }
  for (const { name } of files) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n')
    const checkpoint = parseCheckpoint(lines[0] ?? '')
    if (!checkpoint) {
      // Files are renamed into place only once their checkpoint is on disk, so this is damage
      // from outside; an older checkpoint is the best there is.
      log?.error({ file: name }, 'quota journal file has no checkpoint; trying an older one')
      continue
    }
    const tally = Tally.fromCheckpoint(checkpoint)
    tally.rollDay(today)
    let replayed = 0
    let skipped = 0
    for (const line of lines.slice(1)) {
      if (line.trim() === '') continue
      const entry = parseEntry(line)
      if (entry) {
        tally.apply(entry)
        replayed++
      } else skipped++
    }
    return { tally, recovery: { from: name, replayed, skipped, missingFiles }, lastSequence }
  }
  if (files.length > 0) log?.error({ dir }, 'no readable checkpoint in the quota journal; counting from zero')
  return { tally: new Tally(today), recovery: { from: null, replayed: 0, skipped: 0, missingFiles }, lastSequence }
}

/** The sequence the HEAD file names, or null when there is none (a first start, or a journal older than it). */
function readHead(dir: string): number | null {
  const path = join(dir, HEAD)
  if (!existsSync(path)) return null
  const sequence = Number(readFileSync(path, 'utf8').trim())
  return Number.isSafeInteger(sequence) && sequence > 0 ? sequence : null
}

function listFiles(dir: string): Array<{ name: string; sequence: number }> {
  return readdirSync(dir).flatMap((name) => {
    const match = FILE.exec(name)
    return match ? [{ name, sequence: Number(match[1]) }] : []
  })
}

function writeAll(fd: number, data: Buffer): void {
  for (let offset = 0; offset < data.byteLength; ) offset += writeSync(fd, data, offset)
}

