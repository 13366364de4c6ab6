import { describe, expect, test } from 'bun:test'
import { InvalidInputError } from '../../errors.ts'
import { statusOf } from '../../http/errors.ts'
import { addressParam, closedParam, INVALID_PARAMETER, kindParam, limitParam, optionalAddress, pathAddressParam } from './params.ts'

const refused = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return error as InvalidInputError
  }
  throw new Error('expected a 400')
}

describe('address parameters', () => {
  const hex = '16f9301e11a53519ce2ebbb666100b4d40c6343e'

  test('with or without 0x, in any case, the same 20 bytes', () => {
    for (const written of [hex, `0x${hex}`, `0X${hex}`, hex.toUpperCase(), `0x16F9301e11A53519Ce2eBBB666100b4D40C6343E`]) {
      expect(Buffer.from(addressParam(written)).toString('hex')).toBe(hex)
    }
  })

  test('anything else is a 400 with the one fixed message, a mixed case with a wrong checksum too', () => {
    const wrongChecksum = '0x16f9301e11A53519Ce2eBBB666100b4D40C6343E'
    for (const bad of ['', '0x', hex.slice(1), `${hex}0`, `0x${hex.slice(0, 39)}g`, ` ${hex}`, undefined, ['a', 'b'], wrongChecksum]) {
      const error = refused(() => addressParam(bad))
      expect(error).toBeInstanceOf(InvalidInputError)
      expect(statusOf(error)).toBe(400)
      expect(error.message).toBe(INVALID_PARAMETER)
    }
  })

  test('in a path any case is the same pool, a wrong checksum too; not 40 hex digits is still the 400', () => {
    const wrongChecksum = '0x16f9301e11A53519Ce2eBBB666100b4D40C6343E'
    for (const written of [hex, `0X${hex}`, wrongChecksum, wrongChecksum.slice(2)]) expect(Buffer.from(pathAddressParam(written)).toString('hex')).toBe(hex)
    for (const bad of ['', '0x', hex.slice(1), `0x${hex.slice(0, 39)}g`, undefined]) expect(refused(() => pathAddressParam(bad)).message).toBe(INVALID_PARAMETER)
  })

  test('an optional filter is null when absent', () => {
    expect(optionalAddress(undefined)).toBeNull()
    expect(statusOf(refused(() => optionalAddress('nope')))).toBe(400)
  })
})

describe('limit', () => {
  test('default 50, clamped silently to 1..500', () => {
    expect(limitParam(undefined)).toBe(50)
    expect(limitParam('7')).toBe(7)
    expect(limitParam('0')).toBe(1)
    expect(limitParam('-20')).toBe(1)
    expect(limitParam('501')).toBe(500)
    expect(limitParam('99999999999999999999999')).toBe(500)
    expect(limitParam('+3')).toBe(3)
  })

  test('a number that cannot be parsed is the same 400', () => {
    for (const bad of ['', 'abc', '1.5', '1e3', '0x10', ' 5']) expect(refused(() => limitParam(bad)).message).toBe(INVALID_PARAMETER)
  })
})

describe('closed and kind', () => {
  test('closed=1 includes closed positions; other numbers do not; a non-number is the 400', () => {
    expect(closedParam(undefined)).toBe(false)
    expect(closedParam('1')).toBe(true)
    expect(closedParam('0')).toBe(false)
    expect(refused(() => closedParam('yes')).message).toBe(INVALID_PARAMETER)
  })

  test('kind is mint, burn or collect', () => {
    expect(kindParam(undefined)).toBeNull()
    for (const kind of ['mint', 'burn', 'collect'] as const) expect(kindParam(kind)).toBe(kind)
    for (const kind of ['swap', 'MINT', '', 'mint,burn']) {
      expect(statusOf(refused(() => kindParam(kind)))).toBe(400)
      expect(refused(() => kindParam(kind)).message).toBe(INVALID_PARAMETER)
    }
  })
})
