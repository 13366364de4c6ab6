import { expect, test } from 'bun:test'
import { parseConfig } from '../config/load.ts'
import { predictedAddresses } from '../devnet/deploy.ts'
import { isRegistrableLabel, nameLabel } from './names.ts'

test('the label: one trailing suffix stripped, lower case, 3 to 32 characters or null', () => {
  expect(nameLabel('alice')).toBe('alice')
  expect(nameLabel('alice.bx')).toBe('alice')
  expect(nameLabel('ALICE.BX')).toBe('alice')
  expect(nameLabel('dev-chain.bx')).toBe('dev-chain')
  expect(nameLabel('ab.bx')).toBeNull()
  expect(nameLabel('a'.repeat(33))).toBeNull()
  expect(nameLabel(`${'a'.repeat(32)}.bx`)).toBe('a'.repeat(32))
  expect(nameLabel('%E0%A4%A')).toBeNull()
})

test('a registrable label is a-z, 0-9 and "-", never first or last (the registry contract\'s rule)', () => {
  for (const label of ['abc', 'a-b', 'a1-2b', '123']) expect([label, isRegistrableLabel(label)]).toEqual([label, true])
  for (const label of ['a_b', '-ab', 'ab-', 'a b', 'äbc', 'a.b']) expect([label, isRegistrableLabel(label)]).toEqual([label, false])
})

test('the default name registry and fee router are the ones every fresh dev chain deploys', () => {
  const { explorer } = parseConfig('', null)
  const deployed = predictedAddresses()
  expect([explorer.nameRegistry, explorer.feeRouter]).toEqual([deployed.NameRegistry, deployed.FeeRouter])
  expect(parseConfig('[explorer]\nnameRegistry = ""\nfeeRouter = ""\n', null).explorer).toMatchObject({ nameRegistry: '', feeRouter: '' })
  expect(() => parseConfig('[explorer]\nfeeRouter = "0x12"\n', null)).toThrow(/explorer\.feeRouter/)
})
