import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import tokenListSchema from '@uniswap/token-lists/src/tokenlist.schema.json'

// The seeded registry against the schemas others check it with, through a JSON Schema
// implementation: the published token-list schema and our own schemas/tags.schema.json. ajv and
// @uniswap/token-lists are the main project's dependencies, which the registry (no dependencies,
// Node 20) cannot import; that is why this file is here. The validator's own tests are
// registry/tests/*.test.mjs.

const REGISTRY = join(import.meta.dir, '../../registry')
const readJson = (file: string) => JSON.parse(readFileSync(join(REGISTRY, file), 'utf8'))

/** Both schemas are draft-07, ajv's default dialect. */
function compile(schema: object) {
  const ajv = new Ajv({ allErrors: true })
  addFormats(ajv)
  return ajv.compile(schema)
}

describe('the seeded registry against published schemas', () => {
  test('testnet/tokenlist.json is a valid token list for any wallet', () => {
    const validate = compile(tokenListSchema)
    const valid = validate(readJson('testnet/tokenlist.json'))
    expect(validate.errors ?? []).toEqual([])
    expect(valid).toBe(true)
  })

  test('testnet/tags.json matches schemas/tags.schema.json', () => {
    const validate = compile(readJson('schemas/tags.schema.json'))
    const valid = validate(readJson('testnet/tags.json'))
    expect(validate.errors ?? []).toEqual([])
    expect(valid).toBe(true)
  })

  test('the tags schema rejects an omitted logo, an http url and an unknown field', () => {
    const validate = compile(readJson('schemas/tags.schema.json'))
    const tags = readJson('testnet/tags.json')
    const [first, second, third] = Object.keys(tags.tags) as [string, string, string]
    delete tags.tags[first].logo
    tags.tags[second].url = 'http://example.org'
    tags.tags[third].website = 'https://example.org'
    expect(validate(tags)).toBe(false)
    const paths = (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`)
    expect(paths).toContain(`/tags/${first} must have required property 'logo'`)
    expect(paths.some((path) => path.startsWith(`/tags/${second}/url`))).toBe(true)
    expect(paths).toContain(`/tags/${third} must NOT have additional properties`)
  })
})
