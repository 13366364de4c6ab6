import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { toChecksumAddress } from '../scripts/keccak.mjs'
import { RAW, REGISTRY, copyRegistry, editJson, removeFixtures, svg, tempDir, validate } from './fixture.mjs'

after(removeFixtures)

const LIST = 'testnet/tokenlist.json'
const TAGS = 'testnet/tags.json'
const DUSD = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
const NEW_TOKEN = toChecksumAddress('0x0165878a594ca255338adfa4d48449f69242eb8f')
const LATER = '2026-12-01T00:00:00Z'

/** Runs git in `cwd` with a fixed identity and no outer repository leaking in. */
function git(cwd, ...args) {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'registry', GIT_AUTHOR_EMAIL: 'registry@example.org', GIT_COMMITTER_NAME: 'registry', GIT_COMMITTER_EMAIL: 'registry@example.org' }
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name]
  execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, env, stdio: 'pipe' })
}

/**
 * The seeded registry committed as `main` of a new git repository in which it sits in a
 * `registry/` folder, as it does in the stack's own repository. `prepare` edits the base first.
 */
function committedRegistry(prepare = () => {}) {
  const repo = tempDir()
  const dir = copyRegistry(repo)
  prepare(dir)
  git(repo, 'init', '-q')
  git(repo, 'add', '.')
  git(repo, 'commit', '-q', '-m', 'base')
  return dir
}

/** Sets the version of a parsed file, and the timestamp unless told to keep it. */
function setVersion(json, version, timestamp = LATER) {
  const [major, minor, patch] = version.split('.').map(Number)
  json.version = { major, minor, patch }
  json.timestamp = timestamp
}

/** The version one `kind` bump above the file's own, so the cases hold whatever the seed's version. */
function bumped(json, kind) {
  const { major, minor, patch } = json.version
  if (kind === 'major') return `${major + 1}.0.0`
  if (kind === 'minor') return `${major}.${minor + 1}.0`
  return `${major}.${minor}.${patch + 1}`
}

/** The file's own version, written as the messages write it. */
const versionOf = (json) => `${json.version.major}.${json.version.minor}.${json.version.patch}`

function addToken(dir) {
  writeFileSync(join(dir, `testnet/logos/tokens/${NEW_TOKEN}.svg`), svg())
  editJson(dir, LIST, (list) =>
    list.tokens.push({ chainId: 78270, address: NEW_TOKEN, name: 'New Token', symbol: 'NEW', decimals: 18, logoURI: `${RAW}/tokens/${NEW_TOKEN}.svg` }),
  )
}

function removeDusd(dir) {
  rmSync(join(dir, `testnet/logos/tokens/${DUSD}.svg`))
  editJson(dir, LIST, (list) => (list.tokens = list.tokens.filter((token) => token.address !== DUSD)))
}

const renameDusd = (list) => (list.tokens.find((token) => token.address === DUSD).name = 'Demo Dollar')

/** Each case changes the committed registry and names the outcome against `--base main`. */
const cases = [
  { change: 'nothing changed', edit: () => {}, expect: null },
  { change: 'an added token with a minor bump', edit: (dir) => (addToken(dir), editJson(dir, LIST, (l) => setVersion(l, '1.1.0'))), expect: null },
  { change: 'an added token with a major bump', edit: (dir) => (addToken(dir), editJson(dir, LIST, (l) => setVersion(l, '2.0.0'))), expect: null },
  { change: 'an added token with a patch bump', edit: (dir) => (addToken(dir), editJson(dir, LIST, (l) => setVersion(l, '1.0.1'))), expect: `${LIST}: version: this change needs a minor version bump` },
  { change: 'a removed token with a major bump', edit: (dir) => (removeDusd(dir), editJson(dir, LIST, (l) => setVersion(l, '2.0.0'))), expect: null },
  { change: 'a removed token with a minor bump', edit: (dir) => (removeDusd(dir), editJson(dir, LIST, (l) => setVersion(l, '1.1.0'))), expect: `${LIST}: version: this change needs a major version bump` },
  { change: 'a changed token with a patch bump', edit: (dir) => editJson(dir, LIST, (l) => (renameDusd(l), setVersion(l, '1.0.1'))), expect: null },
  { change: 'a changed token with the version unchanged', edit: (dir) => editJson(dir, LIST, renameDusd), expect: `${LIST}: version: the file changed but version stayed 1.0.0; bump it` },
  {
    change: 'a changed version with the same timestamp',
    edit: (dir) => editJson(dir, LIST, (l) => (renameDusd(l), setVersion(l, '1.0.1', l.timestamp))),
    expect: `${LIST}: timestamp: update timestamp when the version changes`,
  },
  {
    change: 'a changed version with an older timestamp',
    edit: (dir) => editJson(dir, LIST, (l) => (renameDusd(l), setVersion(l, '1.0.1', '2020-01-01T00:00:00Z'))),
    expect: `${LIST}: timestamp: update timestamp when the version changes`,
  },
  { change: 'a version that goes down', edit: (dir) => editJson(dir, LIST, (l) => setVersion(l, '0.9.0')), expect: `${LIST}: version: version went down from 1.0.0 to 0.9.0` },
  {
    change: 'a tag added to tags.json with a minor bump',
    edit: (dir) => editJson(dir, TAGS, (t) => ((t.tags[NEW_TOKEN] = { name: 'New', category: 'token', project: 'New', url: null, logo: null }), setVersion(t, bumped(t, 'minor')))),
    expect: null,
  },
  {
    change: 'a tag added to tags.json with a patch bump',
    edit: (dir) => editJson(dir, TAGS, (t) => ((t.tags[NEW_TOKEN] = { name: 'New', category: 'token', project: 'New', url: null, logo: null }), setVersion(t, bumped(t, 'patch')))),
    expect: `${TAGS}: version: this change needs a minor version bump`,
  },
  {
    change: 'a tag note changed in tags.json without a bump',
    edit: (dir) => editJson(dir, TAGS, (t) => (Object.values(t.tags)[0].note = 'Another sentence.')),
    expect: `${TAGS}: version: the file changed but version stayed ${versionOf(JSON.parse(readFileSync(join(REGISTRY, TAGS), 'utf8')))}; bump it`,
  },
]

describe('version bumps against --base', () => {
  for (const { change, edit, expect } of cases) {
    test(`${change}: ${expect ? 'fails' : 'passes'}`, () => {
      const dir = committedRegistry()
      edit(dir)
      const { code, output } = validate(dir, ['--base', 'main'])
      if (expect === null) {
        assert.equal(code, 0, output)
      } else {
        assert.equal(code, 1, output)
        assert.ok(output.includes(expect), `expected "${expect}" in:\n${output}`)
      }
    })
  }

  test('the message names the change and the next version', () => {
    const dir = committedRegistry()
    removeDusd(dir)
    editJson(dir, LIST, (l) => setVersion(l, '1.0.1'))
    const { output } = validate(dir, ['--base', 'main'])
    assert.ok(output.includes(`this change needs a major version bump: removed token 78270:${DUSD.toLowerCase()} (1.0.0 becomes 2.0.0)`), output)
  })

  test('a file absent at the base is new and needs no bump', () => {
    const dir = committedRegistry((base) => rmSync(join(base, TAGS)))
    copyFileSync(join(REGISTRY, TAGS), join(dir, TAGS))
    const { code, output } = validate(dir, ['--base', 'main'])
    assert.equal(code, 0, output)
  })

  test('an unknown ref is a problem, not a crash', () => {
    const dir = committedRegistry()
    const { code, output } = validate(dir, ['--base', 'no-such-branch'])
    assert.equal(code, 1)
    assert.ok(output.includes('--base no-such-branch: git cannot resolve no-such-branch to a commit'), output)
  })

  test('without --base the versions are not compared', () => {
    const dir = committedRegistry()
    editJson(dir, LIST, renameDusd)
    assert.equal(validate(dir).code, 0)
  })
})
