import { expect, test } from 'bun:test'
import { Admission, type Ticket } from './admission.ts'

test('the per-address cap and the total cap', () => {
  const admission = new Admission(5, 2)
  const a1 = admission.admit('a') as Ticket
  admission.admit('a')
  expect(admission.admit('a')).toBe('tooManyFromAddress')
  admission.admit('b')
  admission.admit('b')
  admission.admit('c')
  expect(admission.total).toBe(5)
  expect(admission.admit('d')).toBe('tooManySockets')
  admission.release(a1)
  expect(admission.total).toBe(4)
  expect(admission.admit('a')).toMatchObject({ address: 'a', released: false })
})

test('releasing twice gives one place back; a reclaimed ticket takes it again', () => {
  const admission = new Admission(1, 1)
  const ticket = admission.admit('a') as Ticket
  admission.release(ticket)
  admission.release(ticket)
  expect(admission.total).toBe(0)
  admission.reclaim(ticket)
  expect(admission.total).toBe(1)
  expect(admission.admit('b')).toBe('tooManySockets')
})
