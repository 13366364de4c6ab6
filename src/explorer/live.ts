import { UnavailableError } from '../errors.ts'
import type { StatsService } from './stats.ts'

/** At most 32 concurrent live streams. */
export const MAX_LIVE_STREAMS = 32

const encoder = new TextEncoder()
const frame = (json: string) => encoder.encode(`data: ${json}\n\n`)

/**
 * The /live streams (docs/explorer.md): each is `text/event-stream` and carries the stats object,
 * first as it is when the stream opens, then once per change. At most 32 are open at once (the
 * next is refused 503) and each is closed after `seconds`, silently: the stream just ends and
 * the client reconnects.
 */
export class LiveHub {
  private open = 0
  /** Streams refused 503 since start, every slot being taken. */
  refused = 0

  constructor(
    private readonly stats: StatsService,
    private readonly seconds: number,
    private readonly max = MAX_LIVE_STREAMS,
  ) {}

  /** Streams open now. */
  get openStreams(): number {
    return this.open
  }

  /** A streaming response, or an UnavailableError (503) when every slot is taken. */
  async connect(): Promise<Response> {
    if (this.open >= this.max) {
      this.refused++
      throw new UnavailableError(`too many live streams (at most ${this.max})`)
    }
    // The slot is taken before the first object is read, so streams opened meanwhile count it.
    this.open++
    let first: string
    try {
      first = await this.stats.json()
    } catch (error) {
      this.open--
      throw error
    }
    let release: () => void = () => {}
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let done = false
        const unsubscribe = this.stats.onChange((json) => {
          try {
            controller.enqueue(frame(json))
          } catch {
            release() // the client went away between the change and the write
          }
        })
        const timer = setTimeout(() => {
          release()
          try {
            controller.close()
          } catch {
            // already closed by the client
          }
        }, this.seconds * 1000)
        release = () => {
          if (done) return
          done = true
          this.open--
          unsubscribe()
          clearTimeout(timer)
        }
        controller.enqueue(frame(first))
      },
      cancel: () => release(),
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream', connection: 'keep-alive' } })
  }
}
