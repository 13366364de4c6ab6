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
  destination?: pino.DestinationStream
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
  return pino(options, destination ?? bufferedLines(1))
}

/** How long a request line may wait in its buffer. */
const FLUSH_EVERY_MS = 50

/**
 * A destination whose request lines may wait in a buffer (`buffer`), where every other line is
 * written at once, after them, in order; `flush` writes what waits.
 */
export type BufferedDestination = pino.DestinationStream & { buffer: (line: string) => void; flush: () => void }

/** Request lines are written this many characters at a time. */
const CHUNK = 32_768

/**
 * JSON lines to the file descriptor `fd`, with the request lines off the request's path: they
 * gather in a buffer written 32 KiB at a time, and within 50 ms of the last one otherwise; any
 * other line (a start, a warning, an error) is written at once, after the request lines before
 * it, and at exit (a clean stop, a fatal error) whatever is left is written before the process
 * ends. Every write is synchronous, so a line handed over is out when the call returns, the last
 * one before an exit too: what costs a service is writing per line, not the write itself (a line
 * written on its own took about a third of a service's requests per second; pino's asynchronous
 * writer, handed one line at a time, as much, since it measures the bytes of all it holds at
 * each write). Standard output has one for the process, however many loggers write to it.
 */
export function bufferedLines(fd: number): BufferedDestination {
  if (fd === 1 && stdoutBuffer) return stdoutBuffer
  const writer = pino.destination({ fd, sync: true, maxWrite: 4 * CHUNK })
  let lines: string[] = []
  let size = 0
  const flush = () => {
    if (lines.length === 0) return
    writer.write(lines.join(''))
    lines = []
    size = 0
  }
  setInterval(flush, FLUSH_EVERY_MS).unref()
  process.on('exit', () => {
    try {
      flush()
    } catch {
      // The file or pipe is gone (a closed stdout): there is nowhere left to write.
    }
  })
  const destination: BufferedDestination = {
    write: (line: string) => {
      flush()
      writer.write(line)
    },
    buffer: (line: string) => {
      lines.push(line)
      size += line.length
      if (size >= CHUNK) flush()
    },
    flush,
  }
  if (fd === 1) stdoutBuffer = destination
  return destination
}
let stdoutBuffer: BufferedDestination | null = null

export const silentLogger: Logger = pino({ level: 'silent' })

/** A logger whose JSON lines are kept in memory, parsed, for reading back what was logged. */
export function captureLog(level = 'info'): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line))
      done()
    },
  })
  return { log: createLogger({ level, pretty: false, destination }), lines }
}

/** What the log says of each request a service answers. */
export type RequestLine = { service: string; method: string; path: string; status: number; ms: number }

/**
 * Writes request lines as `log` would write them (the same JSON at info, with its time), straight
 * to its destination. A request line holds no secret, so it skips the redaction of the other
 * lines, which cost more than the line itself: measured on one service, 14k requests/s logging
 * each through pino with the redaction paths, 46k through pino without them, 53k written here
 * and 67k not logging at all. `log` is a root logger (a child's bindings are not written).
 */
export function requestLogger(log: Logger): (line: RequestLine) => void {
  const destination = (log as unknown as Record<symbol, pino.DestinationStream | BufferedDestination>)[pino.symbols.streamSym]!
  const write = 'buffer' in destination ? destination.buffer : (line: string) => destination.write(line)
  // Lines of the same millisecond share their time.
  let at = 0
  let time = ''
  return ({ service, method, path, status, ms }) => {
    if (!log.isLevelEnabled('info')) return
    const now = Date.now()
    if (now !== at) {
      at = now
      time = new Date(now).toISOString()
    }
    write(
      `{"level":30,"time":"${time}","service":${JSON.stringify(service)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`,
    )
  }
}

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
