import { expect, test } from 'bun:test'
import { csvCell, csvLine } from './csv.ts'

test('a cell a spreadsheet would run as a formula is written as text', () => {
  for (const text of ['=1+2', '+cmd', '-2+3', '@SUM(A1)', '\t=1', '\r=1']) expect(csvCell(text).replace(/^"|"$/g, '').startsWith(`'`)).toBe(true)
  expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
  expect(csvCell('0x12ab')).toBe('0x12ab')
  expect(csvCell('1.5')).toBe('1.5')
})

test('commas, quotes and line breaks are quoted; empty values are empty cells', () => {
  expect(csvCell('a,b')).toBe('"a,b"')
  expect(csvCell('say "hi"')).toBe('"say ""hi"""')
  expect(csvCell('two\nlines')).toBe('"two\nlines"')
  expect(csvCell(null)).toBe('')
  expect(csvCell(undefined)).toBe('')
  expect(csvLine(['a', 1, 2n, null, true])).toBe('a,1,2,,true\r\n')
})
