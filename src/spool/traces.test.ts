import { describe, expect, test } from 'bun:test'
import { packTrace, unpackTrace, type CallFrame, type TxCall } from './traces.ts'

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const C = '0x00000000000000000000000000000000000000cc'

const frame = (fields: Partial<CallFrame>): CallFrame => ({
  type: 'CALL',
  from: A,
  to: B,
  value: '0x0',
  gas: '0x5208',
  gasUsed: '0x0',
  input: '0x',
  output: null,
  error: null,
  calls: [],
  ...fields,
})

const roundTrip = (tree: CallFrame, tx: TxCall) => unpackTrace(packTrace(tree, tx), tx)

describe('a stored call tree', () => {
  test('a plain transfer keeps only its type and gas', () => {
    const tx: TxCall = { from: A, to: B, value: '0x16345785d8a0000', input: '0x' }
    const tree = frame({ value: tx.value })
    expect(packTrace(tree, tx)).toBe('{"t":"CALL","g":"0x5208","u":"0x0"}')
    expect(roundTrip(tree, tx)).toEqual(tree)
  })

  test("a deployment does not store its code twice, and names the contract it made", () => {
    const code = `0x${'60'.repeat(500)}`
    const tx: TxCall = { from: A, to: null, value: '0x0', input: code }
    const tree = frame({ type: 'CREATE', to: C, input: code, output: '0x6001' })
    const text = packTrace(tree, tx)
    expect(text.length).toBeLessThan(150)
    expect(text).toContain('"CREATE')
    expect(roundTrip(tree, tx)).toEqual(tree)
  })

  test('nested calls keep every field that differs, nulls and empty inputs included', () => {
    const tx: TxCall = { from: A, to: B, value: '0x0', input: '0x12345678' }
    const tree = frame({
      input: '0x12345678',
      output: '0x01',
      calls: [
        frame({ type: 'STATICCALL', from: B, to: C, value: null, gas: null, gasUsed: null, input: '0x70a08231' }),
        frame({ type: 'DELEGATECALL', from: B, to: null, value: '0x0', error: 'Reverted', calls: [frame({ from: C, to: A })] }),
        frame({ type: 'CREATE2', from: B, to: C, input: '0x60', output: null }),
      ],
    })
    expect(roundTrip(tree, tx)).toEqual(tree)
  })

  test("a top frame that says otherwise than its transaction keeps what it says, null as well", () => {
    const tx: TxCall = { from: A, to: B, value: '0x1', input: '0xabcdef01' }
    for (const differing of [{ from: C }, { to: null }, { to: C }, { value: null }, { value: '0x2' }, { input: '0x' }] satisfies Array<Partial<CallFrame>>) {
      const tree = frame({ value: '0x1', input: '0xabcdef01', ...differing })
      expect(roundTrip(tree, tx)).toEqual(tree)
    }
  })

  test('addresses and inputs that match in another case are the same call', () => {
    const tx: TxCall = { from: A, to: B, value: '0x0', input: '0xabcdef01' }
    const tree = frame({ from: A.toUpperCase().replace('0X', '0x'), input: '0xABCDEF01' })
    expect(packTrace(tree, tx)).toBe('{"t":"CALL","g":"0x5208","u":"0x0"}')
  })

  test('a tree stored whole, before trees were packed, reads as it was', () => {
    const tx: TxCall = { from: C, to: C, value: '0x9', input: '0x' }
    const tree = frame({ calls: [frame({ from: B, to: C })] })
    expect(unpackTrace(JSON.stringify(tree), tx)).toEqual(tree)
  })
})
