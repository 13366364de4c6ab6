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
  // compiled binary cannot load.
  if (usePretty) return pino(options, pretty({ colorize: destination === undefined, sync: true, ...(destination ? { destination } : {}) }))
  return pino(options, destination ?? pino.destination({ fd: 1, sync: true }))
}

export const silentLogger: Logger = pino({ level: 'silent' })
