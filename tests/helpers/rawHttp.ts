import net from 'node:net'

/**
 * What came back for bytes written on a raw socket: an answer of the app (parsed into a
 * Response), the bare status line Bun's own parser writes before any handler runs (status line
 * and `Connection: close`, nothing else), a close without a word, or nothing yet (a request
 * still waiting for the rest of its body when the wait ended).
 */
export type RawAnswer =
  | { kind: 'app'; response: Response; text: string }
  | { kind: 'bun'; status: number; text: string }
  | { kind: 'closed' }
  | { kind: 'none'; text: string }

const BUN_PARSER_ANSWER = /^HTTP\/1\.1 (\d{3}) [^\r\n]*\r\nConnection: close\r\n\r\n$/

/** Writes `bytes` to `host`:`port` and reads the first answer, waiting at most `waitMs`. */
export function rawRequest(port: number, bytes: string | Uint8Array, waitMs = 1500, host = '127.0.0.1'): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let settled = false
    const socket = net.connect(port, host, () => socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes))
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(classify(Buffer.concat(chunks)))
    }
    const timer = setTimeout(finish, waitMs)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      if (complete(Buffer.concat(chunks))) finish()
    })
    socket.on('close', finish)
    socket.on('error', finish)
  })
}

/** An interim `100 Continue` is not the answer: what follows it is. */
function withoutInterim(bytes: Buffer): Buffer {
  while (/^HTTP\/1\.1 100 /.test(bytes.subarray(0, 13).toString('latin1'))) {
    const end = bytes.indexOf('\r\n\r\n')
    if (end < 0) return Buffer.alloc(0)
    bytes = bytes.subarray(end + 4)
  }
  return bytes
}

/** Whether the bytes hold a whole first answer (headers and a Content-Length body). */
function complete(all: Buffer): boolean {
  const bytes = withoutInterim(all)
  const end = bytes.indexOf('\r\n\r\n')
  if (end < 0) return false
  const head = bytes.subarray(0, end).toString('latin1')
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
  if (/^HTTP\/1\.1 (101|204|304)/.test(head)) return true
  return length !== null && bytes.length >= end + 4 + Number(length[1])
}

function classify(all: Buffer): RawAnswer {
  const bytes = withoutInterim(all)
  const text = bytes.toString('latin1')
  if (text === '') return { kind: 'closed' }
  const bun = BUN_PARSER_ANSWER.exec(text)
  if (bun) return { kind: 'bun', status: Number(bun[1]), text }
  const end = text.indexOf('\r\n\r\n')
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)
  if (end < 0 || !status) return { kind: 'none', text }
  const headers = new Headers()
  for (const line of text.slice(0, end).split('\r\n').slice(1)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  const length = Number(headers.get('content-length') ?? 0)
  const body = bytes.subarray(end + 4, end + 4 + length)
  const code = Number(status[1])
  const nullBody = code === 101 || code === 204 || code === 304
  return { kind: 'app', response: new Response(nullBody ? null : body, { status: code, headers }), text }
}

const HANDSHAKE = {
  Connection: 'Upgrade',
  Upgrade: 'websocket',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version': '13',
}

/** The bytes of a WebSocket upgrade request for `url`, with extra `headers`. */
function upgradeRequest(url: URL, headers: Record<string, string>): string {
  const all = { Host: url.host, ...HANDSHAKE, ...headers }
  return `GET ${url.pathname} HTTP/1.1\r\n${Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`
}

/**
 * Sends a WebSocket upgrade request over a bare TCP socket and reads what comes back before any
 * handshake: the status, headers (by lower-case name) and body exactly as a client sees them.
 */
export async function rawUpgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const target = new URL(url)
  const answer = await rawRequest(Number(target.port), upgradeRequest(target, headers), 5000, target.hostname)
  if (answer.kind !== 'app') throw new Error(`no answer to the upgrade of ${url} (${answer.kind})`)
  return { status: answer.response.status, headers: Object.fromEntries(answer.response.headers), body: await answer.response.text() }
}

/**
 * A client that completes the WebSocket handshake and then never reads again: its socket is
 * paused, so everything sent to it piles up in the kernel and then in the server's buffer.
 */
export function stalledClient(url: string): Promise<{ closedByServer: () => boolean; destroy: () => void }> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    let ended = false
    const socket = net.connect(Number(target.port), target.hostname, () => socket.write(upgradeRequest(target, {})))
    socket.once('data', (chunk) => {
      if (!chunk.toString('latin1').startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${chunk.toString('latin1').split('\r\n')[0]}`))
      socket.pause()
      resolve({ closedByServer: () => ended, destroy: () => socket.destroy() })
    })
    socket.on('end', () => (ended = true))
    socket.on('close', () => (ended = true))
    socket.on('error', reject)
  })
}
