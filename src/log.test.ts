import { expect, test } from 'bun:test'
import { captureLog } from '../tests/helpers/service.ts'

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
