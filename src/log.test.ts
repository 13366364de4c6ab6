import { expect, test } from 'bun:test'
import { captureLog, requestLogger } from './log.ts'

test('keys, authorization headers and secrets never reach a log line', () => {
  const { log, lines } = captureLog()
  const key = `0x${'5e'.repeat(32)}`
  log.info({ operatorKey: key, privateKey: key, config: { secrets: { faucetKey: key } }, req: { headers: { authorization: 'Bearer abc' } } }, 'started')
  log.info({ faucet: { operatorKey: key, apiKey: 'k-123' } }, 'nested')
  const text = JSON.stringify(lines)
  expect(text).not.toContain(key)
  expect(text).not.toContain('Bearer abc')
  expect(text).not.toContain('k-123')
  expect(lines[0]).toMatchObject({ operatorKey: '[redacted]', privateKey: '[redacted]', msg: 'started' })
})

test('one JSON object per line, with level and time', () => {
  const { log, lines } = captureLog()
  log.info({ service: 'explorer', url: 'http://127.0.0.1:4010' }, 'listening')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatchObject({ level: 30, service: 'explorer', msg: 'listening' })
  expect(typeof lines[0]!.time).toBe('string')
})

test('a request line is the line the logger itself would write, and none below its level', () => {
  const { log, lines } = captureLog()
  const line = { service: 'explorer', method: 'GET', path: '/api/tx/"quoted"\\\u0000', status: 404, ms: 1.25 }
  requestLogger(log)(line)
  log.info(line, 'request')
  expect(lines).toHaveLength(2)
  const [written, fromPino] = lines.map(({ time, ...rest }) => ({ ...rest, time: typeof time }))
  expect(written).toEqual(fromPino!)
  expect(Object.keys(lines[0]!)).toEqual(Object.keys(lines[1]!))

  const quiet = captureLog('warn')
  requestLogger(quiet.log)(line)
  expect(quiet.lines).toEqual([])
})
