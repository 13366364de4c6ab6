import { expect, test } from 'bun:test'
import { frameAt, frameCreations } from './creations.ts'
import type { CallFrame } from './traces.ts'

const A = `0x${'aa'.repeat(20)}`
const F = `0x${'fa'.repeat(20)}`
const frame = (type: string, from: string, to: string | null, more: Partial<CallFrame> = {}): CallFrame => ({
  type, from, to, value: null, gas: null, gasUsed: null, input: '0x', output: null, error: null, calls: [], ...more,
})
const made = (n: number) => `0x${n.toString(16).padStart(40, '0')}`

test('creation frames below the top call, by path; the top call, failed frames and what they held are left out', () => {
  const tree = frame('CREATE', A, F, {
    calls: [
      frame('CREATE2', F, made(1), { input: '0x60' }),
      frame('CALL', F, A, { calls: [frame('CALL', A, F), frame('CREATE', A, made(2))] }),
      frame('CREATE', F, made(3), { error: 'execution reverted' }),
      frame('CALL', F, A, { error: 'execution reverted', calls: [frame('CREATE', A, made(4))] }),
      frame('CREATE', F, 'not an address'),
    ],
  })
  expect(frameCreations(tree).map(({ address, creator, frame }) => [address.toLowerCase(), creator.toLowerCase(), frame])).toEqual([
    [made(1), F, '0'],
    [made(2), A, '1.1'],
  ])
  expect(frameAt(tree, '1.1')!.to).toBe(made(2))
  expect(frameAt(tree, '0')!.input).toBe('0x60')
  expect(frameAt(tree, '7')).toBeNull()
  expect(frameAt(tree, '0.3')).toBeNull()
  // A top call that failed made nothing below it.
  expect(frameCreations({ ...tree, error: 'out of gas' })).toEqual([])
})
