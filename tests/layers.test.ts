import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { ROOT } from './helpers/stack.ts'

// The layers of docs/architecture.md as data: who may not import whom. A rule names the files it governs
// (a folder or a file, relative to the checkout; '' for every file), what they may never import,
// what of that they may import after all (`except`), and whether it governs the code, the tests
// (`*.test.ts` and all of tests/) or both.

const SERVICES = ['src/explorer', 'src/exchange', 'src/faucet', 'src/arcade', 'src/etherscan']
/** The composition root: the only place that knows every layer. */
const ROOT_WIRING = ['src/main.ts', 'src/cli', 'src/services.ts', 'src/streams.ts', 'src/spoolWorker.ts', 'src/workers.ts']
/**
 * What a service may use of the spool: the handle it is given and its health, the read API and
 * the stream kit (a stream's definition, tables, versioned state and migrations). The rest (how
 * rows are keyed and packed, the follower, the writer, the store) is the spool's own.
 */
const SPOOL_SURFACE = [
  'src/spool/spool.ts',
  'src/spool/health.ts',
  'src/spool/read.ts',
  'src/spool/engine.ts',
  'src/spool/read',
  'src/spool/kit',
  'src/spool/streams.ts',
  'src/spool/migrations.ts',
  'src/spool/verified.ts',
]

type Rule = { name: string; files: string; forbid: string[]; except?: string[]; of?: 'code' | 'tests' }

export const RULES: Rule[] = [
  ...SERVICES.map((service): Rule => ({
    name: `${service} imports no other service and no dev chain`,
    files: service,
    forbid: [...SERVICES.filter((other) => other !== service), 'src/devnet'],
    of: 'code',
  })),
  // A service's tests may start the dev chain, but test it alone.
  ...SERVICES.map((service): Rule => ({ name: `the tests of ${service} import no other service`, files: service, forbid: SERVICES.filter((other) => other !== service), of: 'tests' })),
  ...SERVICES.map((service): Rule => ({ name: `${service} reads the spool through its read API and stream kit only`, files: service, forbid: ['src/spool'], except: SPOOL_SURFACE, of: 'code' })),
  { name: 'the spool imports no service and no wiring', files: 'src/spool', forbid: [...SERVICES, ...ROOT_WIRING, 'src/registry', 'src/devnet', 'src/http', 'src/config/schema.ts'] },
  { name: 'the chain layer imports no service, no spool and no wiring', files: 'src/chain', forbid: [...SERVICES, ...ROOT_WIRING, 'src/spool', 'src/registry', 'src/devnet', 'src/http'] },
  { name: 'config imports no service', files: 'src/config', forbid: [...SERVICES, ...ROOT_WIRING, 'src/spool', 'src/devnet', 'src/registry'] },
  { name: 'the HTTP conventions import no service and no spool', files: 'src/http', forbid: [...SERVICES, ...ROOT_WIRING, 'src/spool', 'src/devnet'] },
  { name: 'EVM values and errors stand on nothing of the stack', files: 'src/eth', forbid: ['src/'] },
  { name: 'the errors stand on nothing of the stack', files: 'src/errors.ts', forbid: ['src/'] },
  { name: 'waiting and backing off stand on nothing of the stack', files: 'src/time', forbid: ['src/'] },
  { name: 'the dev chain imports no service', files: 'src/devnet', forbid: [...SERVICES, 'src/spool', 'src/http'] },
  { name: 'verification knows no service, no storage and no HTTP', files: 'src/verify', forbid: [...SERVICES, ...ROOT_WIRING, 'src/spool', 'src/http', 'src/devnet', 'src/registry'] },
  { name: 'the operator commands reach the stack over HTTP and JSON-RPC only', files: 'src/ops', forbid: [...SERVICES, ...ROOT_WIRING, 'src/spool', 'src/devnet', 'src/registry', 'src/http'] },
  { name: "the registry's validator imports nothing of src", files: 'registry/scripts', forbid: ['src/'] },
  // Tests: a unit test beside the code stands on src alone; the end-to-end helpers stand below the tests that use them.
  { name: 'the tests in src import nothing of tests/', files: 'src', forbid: ['tests'], of: 'tests' },
  { name: 'the shared test helpers import no test area', files: 'tests/helpers', forbid: ['tests'], except: ['tests/fixtures'] },
  { name: 'no file imports a test file (its tests would run twice)', files: '', forbid: ['*.test.ts'] },
  { name: 'the answer shapes stand on nothing of the stack', files: 'src/answers', forbid: ['src/'] },
  { name: 'the contract book imports no service and no wiring', files: 'src/contracts', forbid: [...SERVICES, ...ROOT_WIRING, 'src/devnet', 'src/http', 'src/registry'] },
  {
    name: 'the decoder imports no service, no spool, no node and no wiring',
    files: 'src/decode',
    forbid: [...SERVICES, ...ROOT_WIRING, 'src/spool', 'src/chain', 'src/devnet', 'src/http', 'src/registry', 'src/config'],
  },
]

/** The answers' shapes are shared by a service and the pages of another: types only, nothing that runs. */
export function runsSomething(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  // Every statement at the top level starts a line; a type's body is indented or continues it.
  return code.split('\n').filter((line) => /^\S/.test(line) && !/^(?:export )?type |^import type |^[}\])|]/.test(line))
}

/** A file and the checkout-relative paths of the files it imports (relative imports only). */
export type ImportGraph = Array<{ file: string; imports: string[] }>

const TEST = /\.test\.[mc]?[jt]sx?$/
/** A test file: a `*.test.ts` anywhere, or anything under tests/ (its helpers and fixtures too). */
export const isTest = (file: string) => TEST.test(file) || file.startsWith('tests/')

/** Every import that breaks a rule, as `file imports target (rule)`. */
export function violations(graph: ImportGraph, rules: Rule[] = RULES): string[] {
  const within = (path: string, place: string) => place === '' || path === place || path.startsWith(place.endsWith('/') ? place : `${place}/`) || (place === '*.test.ts' && TEST.test(path))
  const found: string[] = []
  for (const { file, imports } of graph) {
    for (const rule of rules) {
      if (!within(file, rule.files) || (rule.of && (rule.of === 'tests') !== isTest(file))) continue
      for (const target of imports) {
        if (rule.files !== '' && within(target, rule.files)) continue
        if (rule.except?.some((place) => within(target, place))) continue
        if (rule.forbid.some((place) => within(target, place))) found.push(`${file} imports ${target} (${rule.name})`)
      }
    }
  }
  return found
}

const SOURCE = /\.(?:ts|tsx|mts|mjs|js|cjs)$/
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'"`;]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"]([^'"]+\.(?:ts|mjs))['"],\s*import\.meta\.url\)/g

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path)
    return SOURCE.test(name) && !name.endsWith('.d.mts') ? [path] : []
  })
}

/** The import graph of src/, tests/ and registry/scripts/, tests included, read from the files as they are. */
export function importGraph(): ImportGraph {
  const files = ['src', 'tests', 'registry/scripts'].flatMap((dir) => sourceFiles(join(ROOT, dir)))
  return files.map((path) => {
    const text = readFileSync(path, 'utf8')
    const imports = [...text.matchAll(IMPORT)]
      .map((match) => match[1] ?? match[2] ?? match[3]!)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(ROOT, resolve(dirname(path), specifier)))
    return { file: relative(ROOT, path), imports }
  })
}

describe('the layers of docs/architecture.md', () => {
  test('no file imports across a layer it may not', () => {
    expect(violations(importGraph())).toEqual([])
  })

  test('the rules catch each import the layering forbids', () => {
    const graph: ImportGraph = [
      { file: 'src/spool/spool.ts', imports: ['src/streams.ts'] },
      { file: 'src/spool/worker.ts', imports: ['src/exchange/v2/stream.ts'] },
      { file: 'src/config/schema.ts', imports: ['src/arcade/abis.ts'] },
      { file: 'src/faucet/deployment.ts', imports: ['src/devnet/deploy.ts'] },
      { file: 'src/explorer/app.ts', imports: ['src/exchange/read/v2.ts'] },
      { file: 'registry/scripts/logos.mjs', imports: ['src/eth/address.ts'] },
      { file: 'src/chain/client.ts', imports: ['src/spool/read.ts'] },
      { file: 'src/eth/address.ts', imports: ['src/errors.ts'] },
      { file: 'src/ops/status.ts', imports: ['src/spool/read.ts'] },
      { file: 'src/explorer/tallyStream.ts', imports: ['src/spool/codec.ts'] },
      { file: 'src/explorer/routes/txs.ts', imports: ['src/spool/traces.ts'] },
      { file: 'src/faucet/reconcile.ts', imports: ['src/spool/store.ts'] },
      // Services keep off either engine: the seam's interface is all they see.
      { file: 'src/explorer/stats.ts', imports: ['src/spool/sqlite/engine.ts'] },
      { file: 'src/etherscan/app.ts', imports: ['src/spool/postgres/reader.ts'] },
      { file: 'src/log.test.ts', imports: ['tests/helpers/service.ts'] },
      { file: 'src/faucet/deployment.test.ts', imports: ['src/exchange/settings.ts'] },
      { file: 'tests/helpers/tally.ts', imports: ['tests/spool/helpers.ts'] },
      { file: 'tests/spool/reorg.test.ts', imports: ['tests/spool/streams.test.ts'] },
      { file: 'src/answers/exchange.ts', imports: ['src/exchange/read/v2.ts'] },
      { file: 'src/time/backoff.ts', imports: ['src/errors.ts'] },
      { file: 'src/verify/verifier.ts', imports: ['src/spool/read.ts'] },
      { file: 'src/verify/compile.ts', imports: ['src/workers.ts'] },
    ]
    const found = violations(graph)
    expect(found).toHaveLength(graph.length)
    expect(found[0]).toBe('src/spool/spool.ts imports src/streams.ts (the spool imports no service and no wiring)')
    // Inside a layer, and into a layer below, is allowed.
    expect(violations([{ file: 'src/explorer/app.ts', imports: ['src/explorer/stats.ts', 'src/spool/read.ts', 'src/eth/address.ts'] }])).toEqual([])
    // A service uses the spool's handle, read API and stream kit; its tests may start the dev
    // chain and open a spool; tests use the helpers; the helpers use their fixtures.
    const allowed: ImportGraph = [
      {
        file: 'src/explorer/stream.ts',
        imports: ['src/spool/read/transactions.ts', 'src/spool/kit/tables.ts', 'src/spool/streams.ts', 'src/spool/migrations.ts', 'src/spool/spool.ts', 'src/spool/health.ts'],
      },
      { file: 'src/explorer/names.test.ts', imports: ['src/devnet/deploy.ts', 'src/spool/sqlite/db.ts'] },
      { file: 'tests/explorer/tally.test.ts', imports: ['tests/helpers/tally.ts', 'tests/spool/helpers.ts', 'src/spool/store.ts'] },
      { file: 'tests/helpers/devChain.ts', imports: ['tests/fixtures/hardhat/hardhat.config.cjs', 'src/devnet/devnet.ts'] },
      // The spool, the chain layer and a service share one backoff.
      ...['src/spool/follower.ts', 'src/chain/newHeads.ts', 'src/faucet/receipt.ts'].map((file) => ({ file, imports: ['src/time/backoff.ts'] })),
    ]
    expect(violations(allowed)).toEqual([])
    // The answers' shapes are below every service: the index that gives them and the pages that read them.
    expect(
      violations([
        { file: 'src/explorer/web/pages/exchange/shared.tsx', imports: ['src/answers/exchange.ts'] },
        { file: 'src/exchange/read/v2.ts', imports: ['src/answers/exchange.ts'] },
      ]),
    ).toEqual([])
  })

  test('the answer shapes are types only', () => {
    const files = readdirSync(join(ROOT, 'src/answers'))
    expect(files).toContain('exchange.ts')
    for (const name of files) expect({ name, runs: runsSomething(readFileSync(join(ROOT, 'src/answers', name), 'utf8')) }).toEqual({ name, runs: [] })
    expect(runsSomething("// a note\nexport type A = {\n  a: string\n}\nimport type { B } from './b.ts'\n")).toEqual([])
    expect(runsSomething("export type A = string\nexport const limit = 5\nexport function f() {}\nimport { x } from './x.ts'\n")).toEqual([
      'export const limit = 5',
      'export function f() {}',
      "import { x } from './x.ts'",
    ])
  })
})
