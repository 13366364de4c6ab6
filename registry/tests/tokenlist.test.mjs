import assert from 'node:assert/strict'
import { renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { RAW, copyRegistry, editJson, removeFixtures, validate } from './fixture.mjs'

after(removeFixtures)

const BX = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const DUSD = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
const LIST = 'testnet/tokenlist.json'

/** Each case breaks one rule of a fresh copy and names the line the validator must print. */
const cases = [
  {
    rule: 'address must be EIP-55 checksummed, and the message prints the right form',
    edit: (list) => (list.tokens[0].address = BX.toLowerCase()),
    expect: `tokens[0].address: ${BX.toLowerCase()} is not EIP-55 checksummed (expected ${BX})`,
  },
  {
    rule: 'address is 42 characters',
    edit: (list) => (list.tokens[0].address = BX.slice(0, 41)),
    expect: 'tokens[0].address: must be an address: 0x followed by 40 hex digits (42 characters)',
  },
  {
    rule: 'address is unique, compared case-insensitively',
    edit: (list) => list.tokens.push({ ...list.tokens[0], address: BX.toUpperCase().replace('0X', '0x'), symbol: 'BX2' }),
    expect: `tokens[3].address: address ${BX.toUpperCase().replace('0X', '0x')} repeats tokens[0]`,
  },
  {
    rule: 'symbol is unique, compared case-insensitively',
    edit: (list) => (list.tokens[2].symbol = 'weth'),
    expect: 'tokens[2].symbol: symbol weth repeats tokens[1]',
  },
  {
    rule: 'chainId is the network of the folder',
    edit: (list) => (list.tokens[1].chainId = 1),
    expect: 'tokens[1].chainId: must be 78270, the chain ID of testnet (found 1)',
  },
  {
    rule: 'name is at most 40 characters',
    edit: (list) => (list.tokens[0].name = 'N'.repeat(41)),
    expect: 'tokens[0].name: must be 1-40 characters (found 41)',
  },
  {
    rule: 'name is not empty',
    edit: (list) => (list.tokens[0].name = ''),
    expect: 'tokens[0].name: must be 1-40 characters (found 0)',
  },
  {
    rule: 'symbol has no spaces',
    edit: (list) => (list.tokens[0].symbol = 'B X'),
    expect: 'tokens[0].symbol: must not contain spaces',
  },
  {
    rule: 'symbol is at most 20 characters',
    edit: (list) => (list.tokens[0].symbol = 'S'.repeat(21)),
    expect: 'tokens[0].symbol: must be 1-20 characters (found 21)',
  },
  {
    rule: 'decimals is at most 255',
    edit: (list) => (list.tokens[0].decimals = 256),
    expect: 'tokens[0].decimals: must be an integer from 0 to 255',
  },
  {
    rule: 'decimals is an integer',
    edit: (list) => (list.tokens[0].decimals = 1.5),
    expect: 'tokens[0].decimals: must be an integer from 0 to 255',
  },
  {
    rule: 'every required field is present',
    edit: (list) => delete list.tokens[0].decimals,
    expect: 'tokens[0].decimals: decimals is required',
  },
  {
    rule: 'logoURI points into the network own logos/tokens/ folder',
    edit: (list) => (list.tokens[0].logoURI = list.tokens[0].logoURI.replace('/testnet/', '/mainnet/')),
    expect: `tokens[0].logoURI: must be a raw URL into testnet/logos/tokens/: ${RAW}/tokens/<checksummed address>.png or .svg`,
  },
  {
    rule: 'logoURI names the file after the checksummed address',
    edit: (list) => (list.tokens[0].logoURI = `${RAW}/tokens/${BX.toLowerCase()}.png`),
    expect: `tokens[0].logoURI: logo file must be named after the checksummed address (expected ${BX}.png or ${BX}.svg)`,
  },
  {
    rule: 'logoURI names a .png or .svg',
    edit: (list) => (list.tokens[0].logoURI = `${RAW}/tokens/${BX}.jpg`),
    expect: `tokens[0].logoURI: logo file must be named after the checksummed address (expected ${BX}.png or ${BX}.svg)`,
  },
  {
    rule: 'tags are ids defined in the top-level tags',
    edit: (list) => list.tokens[0].tags.push('nope'),
    expect: "tokens[0].tags[1]: tag nope is not defined in the list's top-level tags",
  },
  {
    rule: 'at most 10 tags per token',
    edit: (list) => {
      for (let i = 0; i < 11; i++) list.tags[`t${i}`] = { name: `Tag ${i}`, description: 'A tag' }
      list.tokens[0].tags = Object.keys(list.tags).filter((id) => id.startsWith('t'))
    },
    expect: 'tokens[0].tags: must hold at most 10 tag ids (found 11)',
  },
  {
    rule: 'at most 10 extension values',
    edit: (list) => (list.tokens[0].extensions = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i]))),
    expect: 'tokens[0].extensions: must hold at most 10 values (found 11)',
  },
  {
    rule: 'extension values are strings, numbers, booleans or null',
    edit: (list) => (list.tokens[0].extensions = { website: 'https://example.org', nested: { a: 1 } }),
    expect: 'tokens[0].extensions.nested: must be a string of 1-42 characters, a number, a boolean or null',
  },
  {
    rule: 'no field outside the token-list format',
    edit: (list) => (list.tokens[0].website = 'https://example.org'),
    expect: 'tokens[0].website: unknown field',
  },
  {
    rule: 'version is major.minor.patch',
    edit: (list) => (list.version = '1.0.0'),
    expect: 'version: must be {"major": M, "minor": m, "patch": p} with non-negative integers',
  },
  {
    rule: 'timestamp is ISO 8601 in UTC',
    edit: (list) => (list.timestamp = '2026-11-23T01:30:00+01:00'),
    expect: 'timestamp: must be an ISO 8601 UTC time such as 2026-01-31T12:00:00Z',
  },
  {
    rule: 'timestamp names a real day',
    edit: (list) => (list.timestamp = '2026-02-30T00:00:00Z'),
    expect: 'timestamp: must be an ISO 8601 UTC time',
  },
  {
    rule: 'name of the list follows the token-list format',
    edit: (list) => (list.name = 'Stack / testnet'),
    expect: 'name: may hold only letters, digits, _ and spaces (token-list format)',
  },
]

describe('tokenlist.json rules', () => {
  for (const { rule, edit, expect } of cases) {
    test(rule, () => {
      const dir = copyRegistry()
      editJson(dir, LIST, edit)
      const { code, output } = validate(dir)
      assert.equal(code, 1, output)
      assert.ok(output.includes(`${LIST}: ${expect}`), `expected "${expect}" in:\n${output}`)
    })
  }

  test('a logoURI whose file differs only in letter case is referenced but missing', () => {
    const dir = copyRegistry()
    const logos = join(dir, 'testnet/logos/tokens')
    renameSync(join(logos, `${DUSD}.svg`), join(logos, `${DUSD.toLowerCase()}.svg`))
    const { code, output } = validate(dir)
    assert.equal(code, 1)
    assert.ok(output.includes(`${LIST}: tokens[2].logoURI: testnet/logos/tokens/${DUSD}.svg is referenced but missing (case matters)`), output)
    assert.ok(output.includes(`testnet/logos/tokens/${DUSD.toLowerCase()}.svg: logo file must be named after the checksummed address (expected ${DUSD}.svg)`), output)
  })

  test('a file that is not JSON is reported, not thrown', () => {
    const dir = copyRegistry()
    writeFileSync(join(dir, LIST), '{ "name": ')
    const { code, output } = validate(dir)
    assert.equal(code, 1)
    assert.match(output, /testnet\/tokenlist\.json: is not valid JSON: /)
  })

  test('--raw-base changes the URL every logo must start with', () => {
    const dir = copyRegistry()
    const other = 'https://example.org/registry'
    assert.match(validate(dir, ['--raw-base', other]).output, /must be a raw URL into testnet\/logos\/tokens\/: https:\/\/example\.org\/registry\/testnet/)
    const rebase = (url) => (typeof url === 'string' ? url.replace('https://raw.githubusercontent.com/stack-chain/registry/main', other) : url)
    editJson(dir, LIST, (list) => list.tokens.forEach((token) => (token.logoURI = rebase(token.logoURI))))
    editJson(dir, 'testnet/tags.json', (tags) => Object.values(tags.tags).forEach((tag) => (tag.logo = rebase(tag.logo))))
    const { code, output } = validate(dir, [`--raw-base=${other}/`])
    assert.equal(code, 0, output)
  })
})
