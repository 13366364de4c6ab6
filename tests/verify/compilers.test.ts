import { describe, expect, test } from 'bun:test'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { probeBundled, probeNative, runCompiler } from '../../src/verify/compile.ts'
import { compilerPlaces, findCompiler } from '../../src/verify/compilers.ts'
import { CompilerFailedError, CompilerNotFoundError, CompileTimeoutError, InputTooLargeError } from '../../src/verify/errors.ts'
import { parseCompilerVersion } from '../../src/verify/version.ts'
import { endIdleWorkers, idleWorkers } from '../../src/verify/warmWorkers.ts'
import { ROOT } from '../helpers/stack.ts'
import { installSolcStandin, SOLCJS_VERSION, standardInput } from '../helpers/verifyFixtures.ts'

const probes = { native: probeNative, bundled: () => probeBundled() }
const LONG = SOLCJS_VERSION.slice(1) // 0.8.37+commit.f401782d
const SHORT = LONG.replace(/\+.*$/, '')
const wanted = parseCompilerVersion(SOLCJS_VERSION)
const home = () => mkdtempSync(join(tmpdir(), 'verify-compilers-'))
const input = JSON.stringify({ ...standardInput(['Counter.sol']), settings: { outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } } } })

/** hardhat's cache as hardhat 2 lays it out: compilers-v2/<platform>/list.json beside the compilers. */
function hardhatCache(at: string, { native = true, wasm = true, broken = false } = {}) {
  const base = join(at, '.cache', 'hardhat-nodejs', 'compilers-v2')
  const builds: Array<{ path: string; version: string; longVersion: string }> = []
  if (native) {
    const dir = join(base, 'linux-amd64')
    mkdirSync(dir, { recursive: true })
    const name = `solc-linux-amd64-v${LONG}`
    copyFileSync(installSolcStandin(join(at, 'standin')), join(dir, name))
    if (broken) writeFileSync(join(dir, `${name}.does.not.work`), '')
    writeFileSync(join(dir, 'list.json'), JSON.stringify({ builds: [{ path: name, version: SHORT, longVersion: LONG }] }))
    builds.push({ path: name, version: SHORT, longVersion: LONG })
  }
  if (wasm) {
    const dir = join(base, 'wasm')
    mkdirSync(dir, { recursive: true })
    copyFileSync(join(ROOT, 'node_modules/solc/soljson.js'), join(dir, `soljson-v${LONG}.js`))
    writeFileSync(join(dir, 'list.json'), JSON.stringify({ builds: [{ path: `soljson-v${LONG}.js`, version: SHORT, longVersion: LONG }] }))
  }
  return base
}

describe('finding a compiler without the network', () => {
  test("hardhat's cache: its native binary first, its soljson when the binary is marked as not working", async () => {
    const withNative = home()
    const base = hardhatCache(withNative)
    expect(await findCompiler(wanted, compilerPlaces({ home: withNative, env: {} }), probes)).toEqual({ kind: 'native', path: join(base, 'linux-amd64', `solc-linux-amd64-v${LONG}`), version: SOLCJS_VERSION, source: 'hardhat' })
    const broken = home()
    const brokenBase = hardhatCache(broken, { broken: true })
    const soljson = await findCompiler(wanted, compilerPlaces({ home: broken, env: {} }), probes)
    expect(soljson).toEqual({ kind: 'solcjs', path: join(brokenBase, 'wasm', `soljson-v${LONG}.js`), version: SOLCJS_VERSION, source: 'hardhat' })
    // A soljson from the disk compiles in the worker as the bundled one does.
    const run = await runCompiler(soljson, input, { timeoutSeconds: 60, maxOutputBytes: 1 << 24 })
    expect(run.version).toStartWith(LONG)
    expect(JSON.parse(run.output).contracts['src/Counter.sol'].Counter.evm.deployedBytecode.object).toMatch(/^6080/)
    // XDG_CACHE_HOME moves hardhat's cache as it moves hardhat's own.
    const moved = home()
    hardhatCache(moved, { native: false })
    expect((await findCompiler(wanted, compilerPlaces({ home: home(), env: { XDG_CACHE_HOME: join(moved, '.cache') } }), probes)).source).toBe('hardhat')
  })

  test('the configured folder comes before svm; svm before the bundled solc-js', async () => {
    const user = home()
    const svm = installSolcStandin(user)
    const folder = join(user, 'compilers')
    mkdirSync(folder)
    copyFileSync(svm, join(folder, `solc-${SHORT}`))
    expect(await findCompiler(wanted, compilerPlaces({ folder, home: user, env: {} }), probes)).toMatchObject({ kind: 'native', path: join(folder, `solc-${SHORT}`), source: 'folder', version: SOLCJS_VERSION })
    expect(await findCompiler(wanted, compilerPlaces({ home: user, env: {} }), probes)).toMatchObject({ kind: 'native', path: svm, source: 'svm', version: SOLCJS_VERSION })
    // $XDG_DATA_HOME/svm is svm's folder too.
    const xdg = home()
    const moved = installSolcStandin(join(xdg, 'data-home-parent'))
    const dataHome = join(xdg, 'data')
    mkdirSync(join(dataHome, 'svm'), { recursive: true })
    const target = join(dataHome, 'svm', SHORT)
    mkdirSync(target)
    copyFileSync(moved, join(target, `solc-${SHORT}`))
    expect(await findCompiler(wanted, compilerPlaces({ home: home(), env: { XDG_DATA_HOME: dataHome } }), probes)).toMatchObject({ source: 'svm', path: join(target, `solc-${SHORT}`) })
    expect(await findCompiler(wanted, compilerPlaces({ home: home(), env: {} }), probes)).toEqual({ kind: 'solcjs', path: null, version: SOLCJS_VERSION, source: 'bundled' })
  })

  test('a binary whose --version is another build is passed over; a version found nowhere names every place', async () => {
    const user = home()
    const svm = installSolcStandin(user)
    const other = parseCompilerVersion(`v${SHORT}+commit.00000000`)
    const error = await findCompiler(other, compilerPlaces({ home: user, env: {} }), probes).catch((caught) => caught)
    expect(error).toBeInstanceOf(CompilerNotFoundError)
    expect(error.message).toBe(
      `no compiler v${SHORT}+commit.00000000 is available (looked in: ${svm}; ${join(user, '.local/share/svm', SHORT, `solc-${SHORT}`)}; ${join(user, '.cache/hardhat-nodejs/compilers*')}; ${join(user, 'Library/Caches/hardhat-nodejs/compilers*')}; the bundled solc-js ${SHORT})`,
    )
    expect(error.places).toHaveLength(5)
  })
})

describe('a compile off the event loop', () => {
  test('a native compiler past its time limit is killed', async () => {
    const svm = installSolcStandin(home())
    const started = performance.now()
    const error = await runCompiler({ kind: 'native', path: svm, version: null, source: 'svm' }, input, { timeoutSeconds: 0.3, maxOutputBytes: 1 << 24 }).catch((caught) => caught)
    expect(error).toBeInstanceOf(CompileTimeoutError)
    expect(error.message).toBe('the compile took longer than 0.3 s')
    expect(performance.now() - started).toBeLessThan(2000)
  })

  test("the compiler's output is read up to its bound, from a process and from a worker", async () => {
    const svm = installSolcStandin(home())
    const native = await runCompiler({ kind: 'native', path: svm, version: null, source: 'svm' }, input, { timeoutSeconds: 60, maxOutputBytes: 100 }).catch((caught) => caught)
    expect(native).toBeInstanceOf(InputTooLargeError)
    expect(native.message).toBe("the compiler's output is larger than 100 bytes")
    const worker = await runCompiler({ kind: 'solcjs', path: null, version: null, source: 'bundled' }, input, { timeoutSeconds: 60, maxOutputBytes: 100 }).catch((caught) => caught)
    expect(worker).toBeInstanceOf(InputTooLargeError)
  })

  test('a worker that answered stays loaded for the next compile; one killed at its limit does not', async () => {
    endIdleWorkers()
    const bundled = { kind: 'solcjs', path: null, version: null, source: 'bundled' } as const
    const first = await runCompiler(bundled, input, { timeoutSeconds: 60, maxOutputBytes: 1 << 24 })
    expect(idleWorkers()).toBe(1)
    const second = await runCompiler(bundled, input, { timeoutSeconds: 60, maxOutputBytes: 1 << 24 })
    expect(second.output).toBe(first.output)
    expect(idleWorkers()).toBe(1)
    // The idle worker is taken, killed at the limit, and not given back.
    await expect(runCompiler(bundled, input, { timeoutSeconds: 0.001, maxOutputBytes: 1 << 24 })).rejects.toBeInstanceOf(CompileTimeoutError)
    expect(idleWorkers()).toBe(0)
  })

  test('a compiler that fails says so with its first line of errors', async () => {
    const path = join(home(), 'solc-broken')
    writeFileSync(path, '#!/bin/sh\necho "solc: cannot start" >&2\nexit 3\n')
    chmodSync(path, 0o755)
    const error = await runCompiler({ kind: 'native', path, version: null, source: 'folder' }, input, { timeoutSeconds: 60, maxOutputBytes: 1 << 20 }).catch((caught) => caught)
    expect(error).toBeInstanceOf(CompilerFailedError)
    expect(error.message).toBe(`${path} exited with 3: solc: cannot start`)
    expect(await probeNative(path)).toBeNull()
  })
})
