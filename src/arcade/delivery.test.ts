import { expect, test } from 'bun:test'
import { ArcadeStats } from './arcade.ts'
import { Delivery } from './delivery.ts'
import { Member, OPEN, type SocketLike } from './room.ts'
import { TokenBucket } from './tokenBucket.ts'

/** A socket whose buffer only grows, and answers send() the way Bun does past its own limit. */
function fakeSocket(limit: number) {
  const socket = {
    readyState: OPEN,
    buffered: 0,
    closed: null as null | { code?: number; reason?: string },
    send(data: string) {
      if (socket.buffered > limit) return 0
      socket.buffered += data.length
      return -1
    },
    close(code?: number, reason?: string) {
      socket.closed = { code, reason }
      socket.readyState = 3
    },
    getBufferedAmount: () => socket.buffered,
  }
  return socket
}

const member = (socket: SocketLike) => new Member(socket, 'coinflip', '127.0.0.1', { address: '127.0.0.1', released: false }, new TokenBucket(1, 1), [])

test('a socket is cut before it would be more than the backlog behind, and nothing more is sent to it', () => {
  const stats = new ArcadeStats()
  const delivery = new Delivery(1000, stats)
  const socket = fakeSocket(1_000_000)
  const slow = member(socket)
  const frame = 'x'.repeat(100)
  let sent = 0
  while (delivery.send(slow, frame)) sent++
  expect(sent).toBe(10)
  expect(socket.buffered).toBe(1000)
  expect(socket.closed).toEqual({ code: 4008, reason: 'too far behind' })
  expect(slow.ejected).toBe('backlog')
  expect(stats.ejections.backlog).toBe(1)
  expect(stats.framesOut).toBe(10)
  expect(delivery.send(slow, frame)).toBe(false)
  expect(stats.ejections.backlog).toBe(1)
})

test('a frame Bun drops (send returns 0) ejects the socket', () => {
  const stats = new ArcadeStats()
  const socket = fakeSocket(0)
  socket.buffered = 1
  const dropped = member(socket)
  expect(new Delivery(1_000_000, stats).send(dropped, 'frame')).toBe(false)
  expect(dropped.ejected).toBe('backlog')
})

test('a socket already closing is skipped, not ejected', () => {
  const stats = new ArcadeStats()
  const socket = fakeSocket(1000)
  socket.readyState = 2
  expect(new Delivery(1000, stats).send(member(socket), 'frame')).toBe(false)
  expect(stats.ejections.backlog).toBe(0)
})
