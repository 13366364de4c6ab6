export type Frame = { type: string } & Record<string, any>

/** A WebSocket client for tests: keeps every frame it receives and can wait for one. */
export class TestSocket {
  readonly frames: Frame[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  private waiters: Array<{ match: (frame: Frame) => boolean; from: number; resolve: (frame: Frame) => void }> = []

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason })))
    ws.addEventListener('message', (event) => {
      const frame = JSON.parse(String(event.data)) as Frame
      this.frames.push(frame)
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.match(frame)) return true
        waiter.resolve(frame)
        return false
      })
    })
  }

  /** Opens a socket; rejects if the upgrade is refused. */
  static open(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
    // Bun's WebSocket takes extra request headers (Origin, X-Forwarded-For).
    const ws = new WebSocket(url, { headers })
    const socket = new TestSocket(ws)
    return new Promise((resolve, reject) => {
      ws.addEventListener('open', () => resolve(socket), { once: true })
      ws.addEventListener('error', () => reject(new Error(`could not open ${url}`)), { once: true })
    })
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** The first matching frame received (from index `since` on), now or when it comes. */
  next(match: (frame: Frame) => boolean, { timeoutMs = 5000, since = 0 } = {}): Promise<Frame> {
    const seen = this.frames.slice(since).find(match)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`)), timeoutMs)
      this.waiters.push({
        match,
        from: since,
        resolve: (frame) => {
          clearTimeout(timer)
          resolve(frame)
        },
      })
    })
  }

  ofType(type: string): Frame[] {
    return this.frames.filter((frame) => frame.type === type)
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close()
    return this.closed
  }
}
