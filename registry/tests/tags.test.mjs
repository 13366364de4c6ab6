import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { RAW, copyRegistry, editJson, removeFixtures, validate } from './fixture.mjs'

after(removeFixtures)

const FAUCET = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'
const V2_FACTORY = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'
const TAGS = 'testnet/tags.json'

/** Renames key `from` of an object to `to`, keeping its value. */
function renameKey(object, from, to) {
  object[to] = object[from]
  delete object[from]
}

/** Each case breaks one rule of a fresh copy and names the line the validator must print. */
const cases = [
  {
    rule: 'tags are keyed by the checksummed address',
    edit: (file) => renameKey(file.tags, FAUCET, FAUCET.toLowerCase()),
    expect: `tags.${FAUCET.toLowerCase()}: ${FAUCET.toLowerCase()} is not EIP-55 checksummed (expected ${FAUCET})`,
  },
  {
    rule: 'a key is an address',
    edit: (file) => renameKey(file.tags, FAUCET, 'faucet'),
    expect: 'tags.faucet: must be an address: 0x followed by 40 hex digits (42 characters)',
  },
  {
    rule: 'category is defined in categories',
    edit: (file) => (file.tags[FAUCET].category = 'amm'),
    expect: `tags.${FAUCET}.category: category amm is not defined in categories`,
  },
  {
    rule: 'logo must be present, null when there is none',
    edit: (file) => delete file.tags[FAUCET].logo,
    expect: `tags.${FAUCET}.logo: logo is required (use null for url or logo when there is none)`,
  },
  {
    rule: 'url must be present, null when there is none',
    edit: (file) => delete file.tags[FAUCET].url,
    expect: `tags.${FAUCET}.url: url is required (use null for url or logo when there is none)`,
  },
  {
    rule: 'url is an https:// link',
    edit: (file) => (file.tags[V2_FACTORY].url = 'http://docs.uniswap.org'),
    expect: `tags.${V2_FACTORY}.url: must be an https:// link or null`,
  },
  {
    rule: 'logo points into the network own logos/tags/ folder',
    edit: (file) => (file.tags[FAUCET].logo = `${RAW}/tokens/0x5FbDB2315678afecb367f032d93F642f64180aa3.png`),
    expect: `tags.${FAUCET}.logo: must be a raw URL into testnet/logos/tags/`,
  },
  {
    rule: 'logo names an existing file, in the same letter case',
    edit: (file) => (file.tags[FAUCET].logo = `${RAW}/tags/Stack.svg`),
    expect: `tags.${FAUCET}.logo: testnet/logos/tags/Stack.svg is referenced but missing (case matters)`,
  },
  {
    rule: 'name is unique in the file',
    edit: (file) => (file.tags[V2_FACTORY].name = 'faucet'),
    expect: `tags.${V2_FACTORY}.name: name faucet repeats tags.${FAUCET}`,
  },
  {
    rule: 'name is at most 40 characters',
    edit: (file) => (file.tags[FAUCET].name = 'N'.repeat(41)),
    expect: `tags.${FAUCET}.name: must be 1-40 characters (found 41)`,
  },
  {
    rule: 'project is at most 40 characters',
    edit: (file) => (file.tags[FAUCET].project = 'P'.repeat(41)),
    expect: `tags.${FAUCET}.project: must be 1-40 characters (found 41)`,
  },
  {
    rule: 'project is required',
    edit: (file) => delete file.tags[FAUCET].project,
    expect: `tags.${FAUCET}.project: project is required`,
  },
  {
    rule: 'note is at most 200 characters',
    edit: (file) => (file.tags[FAUCET].note = 'n'.repeat(201)),
    expect: `tags.${FAUCET}.note: must be 1-200 characters (found 201)`,
  },
  {
    rule: 'no unknown fields in a tag',
    edit: (file) => (file.tags[FAUCET].website = 'https://example.org'),
    expect: `tags.${FAUCET}.website: unknown field; allowed fields are name, category, project, url, logo, note`,
  },
  {
    rule: 'a category key is lowercase',
    edit: (file) => renameKey(file.categories, 'oracle', 'Oracle'),
    expect: 'categories.Oracle: category key must be lowercase (a-z, 0-9, - or _), at most 20 characters',
  },
  {
    rule: 'a category key is at most 20 characters',
    edit: (file) => (file.categories['a-very-long-category-key'] = { name: 'Long', description: 'Too long a key' }),
    expect: 'categories["a-very-long-category-key"]: category key must be lowercase',
  },
  {
    rule: 'a category has a description',
    edit: (file) => delete file.categories.oracle.description,
    expect: 'categories.oracle.description: description is required',
  },
  {
    rule: 'version and timestamp follow the token-list rules',
    edit: (file) => (file.timestamp = 'yesterday'),
    expect: 'timestamp: must be an ISO 8601 UTC time',
  },
]

describe('tags.json rules', () => {
  for (const { rule, edit, expect } of cases) {
    test(rule, () => {
      const dir = copyRegistry()
      editJson(dir, TAGS, edit)
      const { code, output } = validate(dir)
      assert.equal(code, 1, output)
      assert.ok(output.includes(`${TAGS}: ${expect}`), `expected "${expect}" in:\n${output}`)
    })
  }

  test('a new category proposed in the same change is accepted', () => {
    const dir = copyRegistry()
    editJson(dir, TAGS, (file) => {
      file.categories.vault = { name: 'Vault', description: 'Contracts that hold deposits for a protocol' }
      file.tags[FAUCET].category = 'vault'
    })
    const { code, output } = validate(dir)
    assert.equal(code, 0, output)
  })
})
