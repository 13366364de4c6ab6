import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import {
  DEFAULT_RAW_BASE,
  formatProblem,
  validateRepository,
  validateTags,
  validateTokenList,
} from '../scripts/validate.mjs'
import { REGISTRY, VALIDATE, copyRegistry, editJson, png, removeFixtures, validate } from './fixture.mjs'

after(removeFixtures)

const readJson = (file) => JSON.parse(readFileSync(join(REGISTRY, file), 'utf8'))
const FAUCET = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'
const V3_FACTORY = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707'

describe('the command', () => {
  test('the seeded registry passes and says what it checked', () => {
    const { code, output } = validate(REGISTRY)
    assert.equal(code, 0, output)
    assert.ok(output.includes('checked testnet: tokenlist.json (3 tokens), tags.json (23 tags), 5 logos'), output)
    assert.ok(output.includes('OK: no problems'), output)
  })

  test('prints every problem, not the first, one line each, then a summary', () => {
    const dir = copyRegistry()
    editJson(dir, 'testnet/tokenlist.json', (list) => (list.tokens[2].symbol = 'bx'))
    editJson(dir, 'testnet/tags.json', (file) => {
      file.tags[FAUCET.toLowerCase()] = file.tags[FAUCET]
      delete file.tags[FAUCET]
      file.tags[V3_FACTORY].category = 'amm'
      delete file.tags[V3_FACTORY].logo
    })
    writeFileSync(join(dir, 'testnet/logos/tokens/0x5FbDB2315678afecb367f032d93F642f64180aa3.png'), png(64, 64))

    const { code, output } = validate(dir)
    assert.equal(code, 1)
    const expected = [
      'testnet/tokenlist.json: tokens[2].symbol: symbol bx repeats tokens[0]',
      `testnet/tags.json: tags.${FAUCET.toLowerCase()}: ${FAUCET.toLowerCase()} is not EIP-55 checksummed (expected ${FAUCET})`,
      `testnet/tags.json: tags.${V3_FACTORY}.category: category amm is not defined in categories`,
      `testnet/tags.json: tags.${V3_FACTORY}.logo: logo is required (use null for url or logo when there is none)`,
      'testnet/logos/tokens/0x5FbDB2315678afecb367f032d93F642f64180aa3.png: PNG is 64x64, it must be 256x256',
    ]
    const lines = output.trim().split('\n')
    for (const line of expected) assert.ok(lines.includes(line), `expected line "${line}" in:\n${output}`)
    assert.equal(lines.at(-1), 'FAILED: 5 problems')
  })

  test('mainnet is empty and passes', () => {
    const { code, output } = validate(REGISTRY, ['--network', 'mainnet'])
    assert.equal(code, 0, output)
    assert.match(output, /checked mainnet: 0 logos/)
  })

  test('an unknown network folder is a problem', () => {
    const { code, output } = validate(REGISTRY, ['--network', 'devnet'])
    assert.equal(code, 1)
    assert.match(output, /devnet: no such network folder/)
  })

  test('a usage error exits 2 with the usage', () => {
    const { code, output } = validate(REGISTRY, ['--frobnicate'])
    assert.equal(code, 2)
    assert.match(output, /usage: node scripts\/validate\.mjs/)
  })

  test('without a root it checks the registry it lives in', () => {
    const result = spawnSync(process.execPath, [VALIDATE], { cwd: '/', encoding: 'utf8' })
    assert.equal(result.status, 0, result.stdout + result.stderr)
    assert.match(result.stdout, /checked testnet: tokenlist\.json \(3 tokens\)/)
  })

  test('importing the module runs nothing', () => {
    const code = `import(${JSON.stringify(VALIDATE)}).then((m) => { if (typeof m.main !== 'function') process.exit(3) })`
    const result = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' })
    assert.equal(result.status, 0, result.stderr)
    assert.equal(result.stdout, '')
  })
})

describe('the programmatic API', () => {
  test('a fetched copy is validated as a whole, without the file system', () => {
    assert.deepEqual(validateTokenList(readJson('testnet/tokenlist.json'), { network: 'testnet' }), [])
    assert.deepEqual(validateTags(readJson('testnet/tags.json'), { network: 'testnet', rawBase: DEFAULT_RAW_BASE }), [])
  })

  test('problems carry file, JSON path and message', () => {
    const list = readJson('testnet/tokenlist.json')
    list.tokens[1].chainId = 5
    const problems = validateTokenList(list, { network: 'testnet' })
    assert.deepEqual(problems, [{ file: 'testnet/tokenlist.json', path: 'tokens[1].chainId', message: 'must be 78270, the chain ID of testnet (found 5)' }])
    assert.equal(formatProblem(problems[0]), 'testnet/tokenlist.json: tokens[1].chainId: must be 78270, the chain ID of testnet (found 5)')
    assert.equal(formatProblem({ file: 'a.json', path: '', message: 'is not valid JSON' }), 'a.json: is not valid JSON')
  })

  test('logoExists, when given, checks the logo files', () => {
    const seen = []
    const logoExists = (file) => (seen.push(file), false)
    const tags = readJson('testnet/tags.json')
    const problems = validateTags(tags, { network: 'testnet', logoExists })
    assert.ok(seen.includes('testnet/logos/tags/exchange.svg'))
    // One problem per tag that has a logo.
    assert.equal(problems.length, Object.values(tags.tags).filter((tag) => tag.logo !== null).length)
    assert.match(problems[0].message, /is referenced but missing \(case matters\)$/)
  })

  test('not an object, or an unknown network', () => {
    assert.deepEqual(validateTags([], { network: 'testnet' }).map((p) => p.message), ['must be a JSON object'])
    const problems = validateTokenList(readJson('testnet/tokenlist.json'), { network: 'devnet' })
    assert.match(problems[0].message, /no chain ID is known for network devnet/)
  })

  test('validateRepository gives the same problems as the command', async () => {
    assert.deepEqual(await validateRepository(REGISTRY), [])
    const dir = copyRegistry()
    editJson(dir, 'testnet/tokenlist.json', (list) => (list.tokens[0].decimals = -1))
    assert.deepEqual(await validateRepository(dir), [{ file: 'testnet/tokenlist.json', path: 'tokens[0].decimals', message: 'must be an integer from 0 to 255' }])
  })
})
