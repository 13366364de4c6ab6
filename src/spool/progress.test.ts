import { expect, test } from 'bun:test'
import { CatchUpMeter, describeCatchUp } from './progress.ts'

test('a catch-up starts past ten blocks behind, reports its rates and ETA, and ends within two of the head', () => {
  let now = 1_000_000
  const meter = new CatchUpMeter(() => now)
  expect(meter.update(95, 100).status).toBeNull()

  const first = meter.update(0, 1000)
  expect(first.status).toMatchObject({ blocksDone: 0, blocksLeft: 1000, etaSeconds: null })
  meter.stored(0, 0)
  for (let second = 1; second <= 5; second++) {
    now += 1000
    meter.stored(20, 1000)
  }
  const { status } = meter.update(100, 1000)
  expect(status).toMatchObject({ blocksDone: 100, blocksLeft: 900, blocksPerSecond: 20, txsPerSecond: 1000, etaSeconds: 45 })
  expect(describeCatchUp(status!, 100, 1000)).toBe('catching up: block 100 of 1000, 900 to go, 20 blocks/s, 1000 tx/s, about 45 s left')

  // Five seconds have passed since the catch-up began: time to say it, then not again for five more.
  expect(meter.due(5000)).toBe(true)
  expect(meter.due(5000)).toBe(false)
  now += 3000
  expect(meter.due(5000)).toBe(false)
  now += 3000
  expect(meter.due(5000)).toBe(true)

  const done = meter.update(999, 1000)
  expect(done.status).toBeNull()
  expect(done.ended).toEqual({ seconds: 11, blocks: 100 })
  expect(meter.update(999, 1000).ended).toBeNull()
})

test('the rates are those of the last ten seconds', () => {
  let now = 0
  const meter = new CatchUpMeter(() => now)
  meter.update(0, 10_000)
  for (let second = 0; second < 30; second++) {
    now += 1000
    meter.stored(second < 15 ? 100 : 10, 0)
  }
  expect(meter.update(1000, 10_000).status!.blocksPerSecond).toBe(10)
})
