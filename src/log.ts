import { Writable } from 'node:stream'
import pino, { type Logger } from 'pino'
import pretty from 'pino-pretty'

export type { Logger }

// Field names whose values never reach a log line, at any of the first three levels of nesting.
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'key',
  'privateKey',
  'operatorKey',
  'faucetKey',
  'apiKey',
  'secret',
  'password',
  'mnemonic',
  'secrets',
]

export const redactPaths = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`])

export type LogOptions = {
  level?: string
  /** Human-readable lines; the default is pretty only when stdout is a terminal. */
  pretty?: boolean
  /** Where lines go; the default is stdout. */
  destination?: NodeJS.WritableStream
}

export function createLogger({ level = 'info', pretty: wantPretty, destination }: LogOptions = {}): Logger {
  const options = {
    level,
    base: undefined,
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  }
  const usePretty = wantPretty ?? (destination === undefined && process.stdout.isTTY === true)
  // pino-pretty as a plain stream, not a transport: transports run in worker threads that a
  // compiled binary cannot load. On a terminal, lines go through the status line's writer.
  if (usePretty && destination === undefined && process.stdout.isTTY === true) {
    status.enabled = true
    return pino(options, pretty({ colorize: true, sync: true, destination: aboveStatus }))
  }
  if (usePretty) return pino(options, pretty({ colorize: destination === undefined, sync: true, ...(destination ? { destination } : {}) }))
  return pino(options, destination ?? pino.destination({ fd: 1, sync: true }))
}

export const silentLogger: Logger = pino({ level: 'silent' })

// A terminal's status line: one line under the log that rewrites itself (a catch-up's progress),
// lifted out of the way whenever a log line is written and drawn again below it.
const status: { enabled: boolean; text: string | null } = { enabled: false, text: null }
const CLEAR_LINE = '\r\x1b[K'

const aboveStatus = new Writable({
  write(chunk: Buffer | string, _encoding, done) {
    const text = String(chunk)
    process.stdout.write(status.text === null ? text : `${CLEAR_LINE}${text}${status.text}`)
    done()
  },
})

/** Shows `text` as the terminal's status line (null takes it away); nothing unless the log is on a terminal. */
export function showStatus(text: string | null): void {
  if (!status.enabled || text === status.text) return
  const width = process.stdout.columns ?? 120
  const line = text === null ? null : text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text
  process.stdout.write(`${CLEAR_LINE}${line ?? ''}`)
  status.text = line
}
