import { afterAll, describe, expect, test } from 'bun:test'
import { NodeTimeoutError } from '../../errors.ts'
import { SpoolMeter } from '../meter.ts'
import { FollowerFailures, type TimedOutWork } from './failures.ts'
import { keptLog, scriptedNode } from './scriptedNode.ts'

const node = scriptedNode({ requestTimeoutMs: 100 })
node.mine(3)
afterAll(() => node.close())

function failures(repeatMs = 30_000, requestTimeoutMs = 100) {
  const { lines, log } = keptLog()
  const meter = new SpoolMeter()
  let changes = 0
  let lost = 0
  const report = new FollowerFailures({
    path: '/data/spool.db',
    rpcUrl: node.url,
    requestTimeoutMs,
    repeatMs,
    log,
    meter,
    changed: () => changes++,
    nodeLost: () => lost++,
  })
  return { report, lines, meter, changes: () => changes, lost: () => lost }
}

/** What a step's failure is, as the node gives it. */
const failureOf = (call: Promise<unknown>) => call.then(() => null, (error: unknown) => error)
const noLateRequest = { takeTimedOut: (): TimedOutWork | null => null }

describe('the follower says what fails', () => {
  test('a retry backs off from 250 ms to 10 s, is in the health from its first try and in the log from its third, then once a repeat', () => {
    const { report, lines, changes } = failures()
    const waits = Array.from({ length: 8 }, () => report.retrying('unlinked', 'block 3 does not link'))
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000])
    expect(report.retryHealth()).toMatchObject({ reason: 'block 3 does not link', attempts: 8, nextInMs: 10_000 })
    expect(report.retryWaitMs).toBe(10_000)
    expect(changes()).toBe(8)
    // From the third try, and not again within the repeat interval.
    expect(lines).toEqual([
      { level: 'warn', fields: { attempts: 3, since: report.retryHealth()!.since, retryInMs: 1000 }, message: 'block 3 does not link; trying again; said again every 30 s while it lasts' },
    ])
    report.settled('node', 'unlinked')
    expect(lines.at(-1)).toEqual({ level: 'info', fields: { attempts: 8 }, message: 'works again after 8 tries: block 3 does not link' })
    expect(report.retryHealth()).toBeNull()
    expect(report.retryWaitMs).toBeNull()
    // Another kind starts from the first wait again.
    expect(report.retrying('step', 'spool step failed: x')).toBe(250)
  })

  test('a retry of another kind is not settled by a success of this one', () => {
    const { report, lines } = failures()
    for (let i = 0; i < 3; i++) report.retrying('unlinked', 'no link')
    report.settled('node', 'timeout', 'step', 'storage')
    expect(report.retryHealth()?.attempts).toBe(3)
    expect(lines).toHaveLength(1)
  })

  test('a lasting retry is said again once the repeat interval has passed', async () => {
    const { report, lines } = failures(20)
    for (let i = 0; i < 4; i++) report.retrying('step', 'spool step failed: boom')
    expect(lines).toHaveLength(1)
    await Bun.sleep(30)
    report.retrying('step', 'spool step failed: boom')
    expect(lines.map((line) => line.fields.attempts)).toEqual([3, 5])
    expect(lines[1]!.message).toBe('spool step failed: boom; trying again; said again every 0.02 s while it lasts')
  })

  test('a node away is said at once, counted, and the identity must be proven again; its return is said', async () => {
    const { report, lines, meter, lost } = failures()
    report.reachable()
    expect(lines.at(-1)).toEqual({ level: 'info', fields: { rpc: node.url }, message: 'node reachable' })
    node.down = true
    const error = await failureOf(node.rpc.call('eth_blockNumber'))
    node.down = false
    expect(report.failed(error, noLateRequest)).toBe(250)
    expect(lines.at(-1)).toEqual({ level: 'warn', fields: { error: `the node at ${node.url} answered HTTP 503` }, message: 'node unreachable; retrying' })
    expect([report.nodeReachable, report.lastError, lost()]).toEqual([false, `the node at ${node.url} answered HTTP 503`, 1])
    // Still away: said again only after the repeat interval, with it named; the retry itself is not logged.
    for (let i = 0; i < 4; i++) report.failed(error, noLateRequest)
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1)
    expect(report.retryHealth()).toMatchObject({ attempts: 5, reason: `the node at ${node.url} answered HTTP 503` })
    expect(meter.drain()?.rpcErrors).toEqual({ timeout: 0, unreachable: 5, error: 0 })
    report.reachable()
    expect([report.nodeReachable, report.lastError]).toEqual([true, null])
    report.settled('node')
    expect(lines.at(-1)!.message).toBe(`works again after 5 tries: the node at ${node.url} answered HTTP 503`)
  })

  test('a timeout asks for less and waits as long again as the late request was given', async () => {
    const { report, lines, meter } = failures()
    node.slow(['eth_blockNumber'], 150)
    const error = await failureOf(node.rpc.call('eth_blockNumber'))
    node.slow(['eth_blockNumber'], 0)
    expect(error).toBeInstanceOf(NodeTimeoutError)
    let taken = 0
    const late = { takeTimedOut: () => (taken++, { ms: 90, blocks: 7 }) }
    // The backoff's 250 ms is longer than the request's 90 ms; later, 500 ms is longer still.
    expect(report.failed(error, late)).toBe(250)
    expect(report.retryHealth()!.reason).toBe(`the node at ${node.url} did not answer within 0.1 s (a request of 7 blocks); asking for less at a time`)
    expect(report.lastError).toBe(`the node at ${node.url} did not answer within 0.1 s`)
    expect(taken).toBe(1)
    // A longer request is waited for as long again, up to the time limit.
    const { report: other } = failures(30_000, 1000)
    expect(other.failed(error, { takeTimedOut: () => ({ ms: 600, blocks: 1 }) })).toBe(600)
    expect(other.failed(error, { takeTimedOut: () => ({ ms: 5000, blocks: 1 }) })).toBe(1000)
    expect(lines).toHaveLength(0)
    expect(meter.drain()?.rpcErrors.timeout).toBe(1)
  })

  test('an error the node answers is a failed step', async () => {
    const { report, meter } = failures()
    node.script = (call) => (call.method === 'eth_blockNumber' ? { error: { code: -32000, message: 'header not found' } } : undefined)
    const error = await failureOf(node.rpc.call('eth_blockNumber'))
    node.script = null
    let taken = 0
    report.failed(error, { takeTimedOut: () => (taken++, null) })
    expect(report.retryHealth()!.reason).toBe('spool step failed: eth_blockNumber: header not found (-32000)')
    expect(report.lastError).toBe('eth_blockNumber: header not found (-32000)')
    // Only a timeout takes the late request.
    expect(taken).toBe(0)
    expect(meter.drain()?.rpcErrors.error).toBe(1)
  })

  test('a full disk is the spool, not the node: said once for the follower and every stream, cleared when it writes again', () => {
    const { report, lines } = failures()
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
    const message = 'the spool cannot write /data/spool.db: the disk is full; free some space on its disk'
    expect(report.failed(full, noLateRequest)).toBe(250)
    report.streamFailed('tally', full)
    expect([report.nodeReachable, report.storageError(), report.lastError, report.streamError('tally')]).toEqual([true, message, message, message])
    expect(lines.filter((line) => line.level === 'error')).toEqual([{ level: 'error', fields: { code: 'SQLITE_FULL' }, message: `${message}; retrying; said again every 30 s while it lasts` }])
    report.worksAgain()
    // The stream still cannot write: the spool's file is not yet said to be writable.
    expect(report.storageError()).toBe(message)
    expect(lines.some((line) => line.message === 'the spool can write again')).toBe(false)
    expect(report.lastError).toBeNull()
    report.worksAgain('tally')
    expect(report.storageError()).toBeNull()
    expect(lines.at(-1)).toEqual({ level: 'info', fields: { path: '/data/spool.db' }, message: 'the spool can write again' })
  })

  test("a stream's failing pass is said when it starts and when it passes again", () => {
    const { report, lines } = failures()
    report.streamFailed('v2', new Error('bad row\nat line 2'))
    report.streamFailed('v2', new Error('bad row'))
    expect(report.streamError('v2')).toBe('bad row')
    expect(lines).toEqual([
      { level: 'error', fields: { stream: 'v2', error: 'bad row' }, message: 'a derived stream pass failed; it is tried again every two seconds; said again every 30 s while it lasts' },
    ])
    report.worksAgain('v2')
    expect(report.streamError('v2')).toBeNull()
    expect(lines.at(-1)).toEqual({ level: 'info', fields: { stream: 'v2' }, message: 'the derived stream passes again' })
    // A stream that never failed passes in silence.
    report.worksAgain('cl')
    expect(lines).toHaveLength(2)
  })

  test('a block the node no longer has is said once while the spool waits before it, and forgotten once a block is written', () => {
    const { report, lines } = failures()
    report.historyGapAt(5, 40)
    report.historyGapAt(5, 41)
    expect(report.historyGap).toEqual({ from: 5, to: 41 })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.fields).toEqual({ missingBlock: 5, nodeHead: 40 })
    expect(lines[0]!.message).toStartWith("the spool fell behind the node's history window: block 5 is gone from the node;")
    report.historyGapPassed()
    expect(report.historyGap).toBeNull()
    report.historyGapAt(5, 41)
    expect(lines).toHaveLength(2)
  })
})
