import net from 'node:net'

export type RawAnswer = { status: number; headers: Record<string, string>; body: string }

const HANDSHAKE = {
  Connection: 'Upgrade',
  Upgrade: 'websocket',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version': '13',
}

/**
 * Sends a WebSocket upgrade request over a bare TCP socket and reads what comes back before any
 * handshake: the status line, headers and body exactly as a client sees them.
 */
export function rawUpgrade(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { hostname, port, pathname } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      const all = { Host: `${hostname}:${port}`, ...HANDSHAKE, ...headers }
      socket.write(`GET ${pathname} HTTP/1.1\r\n${Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`)
    })
    let text = ''
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const head = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      const status = Number(statusLine!.split(' ')[1])
      const length = Number(head['content-length'] ?? 0)
      const body = text.slice(end + 4)
      if (status !== 101 && body.length < length) return
      socket.destroy()
      resolve({ status, headers: head, body: status === 101 ? '' : body.slice(0, length) })
    })
    socket.on('error', reject)
  })
}

/**
 * A client that completes the WebSocket handshake and then never reads again: its socket is
 * paused, so everything sent to it piles up in the kernel and then in the server's buffer.
 */
export function stalledClient(url: string): Promise<{ closedByServer: () => boolean; destroy: () => void }> {
  const { hostname, port, pathname } = new URL(url)
  return new Promise((resolve, reject) => {
    let ended = false
    const socket = net.connect(Number(port), hostname, () => {
      const all = { Host: `${hostname}:${port}`, ...HANDSHAKE }
      socket.write(`GET ${pathname} HTTP/1.1\r\n${Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`)
    })
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
