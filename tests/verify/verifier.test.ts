import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { ANVIL_DEV_KEYS } from '../../src/devnet/accounts.ts'
import { createLogger } from '../../src/log.ts'
import { maskedRuntimeHash } from '../../src/verify/bytecode.ts'
import { compilerPlaces } from '../../src/verify/compilers.ts'
import { CompileError, CompileTimeoutError, CompilerNotFoundError, ContractNotFoundError, QUEUE_FULL_MESSAGE, VerificationQueueFullError } from '../../src/verify/errors.ts'
import { singleFileInput } from '../../src/verify/input.ts'
import { createVerifier, type VerifierSettings, type VerifyRequest } from '../../src/verify/verifier.ts'
import { endIdleWorkers } from '../../src/verify/warmWorkers.ts'
import { spawnAnvil, type Anvil } from '../helpers/anvil.ts'
import { compileFixture, deployFixture, fixtureSource, installSolcStandin, SOLCJS_VERSION, standardInput, type Deployed } from '../helpers/verifyFixtures.ts'

const log = createLogger({ level: 'silent' })
// A home with no compilers in it: only the bundled solc-js is found, unless a test puts one there.
const emptyHome = mkdtempSync(join(tmpdir(), 'verify-home-'))
const settings = (more: Partial<VerifierSettings> = {}): VerifierSettings => ({
  compilers: null,
  concurrency: 1,
  timeoutSeconds: 60,
  queue: 16,
  places: compilerPlaces({ home: emptyHome, env: {} }),
  ...more,
})

let anvil: Anvil
beforeAll(async () => {
  anvil = await spawnAnvil()
})
afterAll(async () => {
  await anvil?.stop()
})

const request = (input: unknown, contractIdentifier: string, deployed: Deployed, more: Partial<VerifyRequest> = {}): VerifyRequest => ({
  stdJsonInput: input,
  compilerVersion: SOLCJS_VERSION,
  contractIdentifier,
  chainCode: deployed.runtimeCode,
  creationInput: deployed.creationInput,
  ...more,
})

describe('the verifier, against contracts deployed on anvil', () => {
  test('a plain contract matches exactly, creation and runtime, with what the page shows', async () => {
    const input = standardInput(['Counter.sol'])
    const deployed = await deployFixture(anvil.rpcUrl, compileFixture(input, 'src/Counter.sol:Counter'))
    const verifier = createVerifier(settings(), log)
    const result = await verifier.verify(request(input, 'src/Counter.sol:Counter', deployed))
    expect(result).toMatchObject({
      match: 'exact_match',
      creationMatch: 'exact_match',
      runtimeMatch: 'exact_match',
      contractName: 'Counter',
      contractIdentifier: 'src/Counter.sol:Counter',
      compilerVersion: SOLCJS_VERSION,
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'osaka',
      constructorArguments: '0x',
      libraries: {},
      licence: 'MIT',
      reason: null,
    })
    expect(result.compilerVersion).toMatch(/^v0\.8\.37\+commit\.[0-9a-f]{8}$/)
    expect(result.sources).toEqual({ 'src/Counter.sol': fixtureSource('Counter.sol') })
    expect(result.abi.map((item) => ('name' in item ? item.name : item.type)).sort()).toEqual(['Counted', 'TooLarge', 'add', 'count', 'increment'])
    expect((result.metadata as { language: string }).language).toBe('Solidity')
    expect(result.runtimeAuxdata).toHaveLength(1)
  })

  test('constructor arguments are found after the creation code', async () => {
    const input = standardInput(['Greeter.sol'])
    const compiled = compileFixture(input, 'src/Greeter.sol:Greeter')
    const deployed = await deployFixture(anvil.rpcUrl, compiled, { args: ['hello', 7n] })
    const result = await createVerifier(settings(), log).verify(request(input, 'src/Greeter.sol:Greeter', deployed))
    expect(result.match).toBe('exact_match')
    expect(result.constructorArguments).toBe(`0x${deployed.creationInput.slice(compiled.bytecode.length)}`)
    expect(result.constructorArguments!.length).toBe(2 + 64 * 4)
    expect(result.licence).toBe('Apache-2.0')
  })

  test("immutables are taken from the chain's code: an exact runtime match", async () => {
    const input = standardInput(['Vault.sol'])
    const compiled = compileFixture(input, 'src/Vault.sol:Vault')
    const deployed = await deployFixture(anvil.rpcUrl, compiled, { args: [5000n] })
    // The chain's code differs from the compiled code exactly where the immutables are.
    expect(deployed.runtimeCode).not.toBe(compiled.deployedBytecode)
    const result = await createVerifier(settings(), log).verify(request(input, 'src/Vault.sol:Vault', deployed))
    expect(result).toMatchObject({ match: 'exact_match', runtimeMatch: 'exact_match', creationMatch: 'exact_match' })
    expect(Object.keys(result.immutableReferences)).toHaveLength(2)
    // With the creation input unknown the runtime alone decides.
    const runtimeOnly = await createVerifier(settings(), log).verify(request(input, 'src/Vault.sol:Vault', deployed, { creationInput: null }))
    expect(runtimeOnly).toMatchObject({ match: 'exact_match', runtimeMatch: 'exact_match', creationMatch: null, constructorArguments: null })
  })

  test("a linked library's address is read from the chain's code", async () => {
    const input = standardInput(['Calculator.sol'])
    const library = await deployFixture(anvil.rpcUrl, compileFixture(input, 'src/Calculator.sol:MathLib'))
    const compiled = compileFixture(input, 'src/Calculator.sol:Calculator')
    expect(Object.keys(compiled.linkReferences)).toEqual(['src/Calculator.sol'])
    const deployed = await deployFixture(anvil.rpcUrl, compiled, { libraries: { 'src/Calculator.sol:MathLib': library.address } })
    const verifier = createVerifier(settings(), log)
    const result = await verifier.verify(request(input, 'src/Calculator.sol:Calculator', deployed))
    expect(result).toMatchObject({ match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match' })
    expect(result.libraries).toEqual({ 'src/Calculator.sol:MathLib': library.address.toLowerCase() as Hex })
    // Named in the input's settings, the compiler links it itself; the metadata holds the
    // settings, so a contract compiled without them matches partially.
    const named = standardInput(['Calculator.sol'], { libraries: { 'src/Calculator.sol': { MathLib: library.address } } })
    const linked = await verifier.verify(request(named, 'src/Calculator.sol:Calculator', deployed))
    expect(linked).toMatchObject({ match: 'match', creationMatch: 'match', runtimeMatch: 'match' })
    expect(linked.libraries['src/Calculator.sol:MathLib']).toBe(library.address.toLowerCase() as Hex)
    // The library itself: its call protection holds its own address.
    const own = await verifier.verify(request(input, 'src/Calculator.sol:MathLib', library))
    expect(own).toMatchObject({ match: 'exact_match', runtimeMatch: 'exact_match' })
  })

  test('a source changed by a comment is a partial match; changed in code, no match', async () => {
    const input = standardInput(['Counter.sol'])
    const deployed = await deployFixture(anvil.rpcUrl, compileFixture(input, 'src/Counter.sol:Counter'))
    const verifier = createVerifier(settings(), log)
    const commented = standardInput({ 'Counter.sol': `${fixtureSource('Counter.sol')}\n// a comment changes the metadata, not the code\n` })
    const partial = await verifier.verify(request(commented, 'src/Counter.sol:Counter', deployed))
    expect(partial).toMatchObject({ match: 'match', creationMatch: 'match', runtimeMatch: 'match', reason: null })
    const changed = standardInput({ 'Counter.sol': fixtureSource('Counter.sol').replace('count += 1;', 'count += 2;') })
    const none = await verifier.verify(request(changed, 'src/Counter.sol:Counter', deployed))
    expect(none).toMatchObject({ match: null, creationMatch: null, runtimeMatch: null, constructorArguments: null })
    expect(none.reason).toContain('differs')
  })

  test("a factory's pairs share one masked runtime hash; another contract's differs", async () => {
    const input = standardInput(['PairFactory.sol'])
    const factory = await deployFixture(anvil.rpcUrl, compileFixture(input, 'src/PairFactory.sol:PairFactory'))
    const chain = { ...foundry, id: 78270 }
    const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_DEV_KEYS[0]!), chain, transport: http(anvil.rpcUrl) })
    const client = createPublicClient({ chain, transport: http(anvil.rpcUrl) })
    const abi = compileFixture(input, 'src/PairFactory.sol:PairFactory').abi
    for (let i = 0; i < 2; i++) await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: factory.address, abi, functionName: 'create' }) })
    const pairs = await Promise.all([0n, 1n].map((i) => client.readContract({ address: factory.address, abi, functionName: 'pairs', args: [i] }) as Promise<Hex>))
    const codes = await Promise.all(pairs.map(async (address) => (await client.getCode({ address }))!))
    expect(codes[0]).not.toBe(codes[1])
    // The first pair verified from its code alone (no creation transaction of its own)...
    const result = await createVerifier(settings(), log).verify(request(input, 'src/PairFactory.sol:Pair', { ...factory, runtimeCode: codes[0]!, creationInput: '0x' }, { creationInput: null }))
    expect(result).toMatchObject({ match: 'exact_match', runtimeMatch: 'exact_match' })
    // ... and the second recognised by its masked hash.
    const mask = { immutableReferences: result.immutableReferences, auxdata: result.runtimeAuxdata }
    expect(maskedRuntimeHash(codes[1]!, mask)).toBe(maskedRuntimeHash(codes[0]!, mask))
    expect(maskedRuntimeHash(factory.runtimeCode, mask)).not.toBe(maskedRuntimeHash(codes[0]!, mask))
    // The factory carries the pair's code and its metadata: both auxdatas are masked for a partial match.
    const factoryResult = await createVerifier(settings(), log).verify(request(input, 'src/PairFactory.sol:PairFactory', factory))
    expect(factoryResult.match).toBe('exact_match')
    expect(factoryResult.runtimeAuxdata).toHaveLength(2)
  })

  test('a single file as Etherscan sends it', async () => {
    const source = fixtureSource('Greeter.sol')
    const { stdJsonInput, contractIdentifier } = singleFileInput({ source, contractName: 'Greeter', optimizer: true, runs: 200, evmVersion: 'default' })
    expect(contractIdentifier).toBe('Greeter.sol:Greeter')
    const compiled = compileFixture({ ...stdJsonInput, settings: { ...stdJsonInput.settings, outputSelection: standardInput([]).settings.outputSelection } } as never, contractIdentifier)
    const deployed = await deployFixture(anvil.rpcUrl, compiled, { args: ['hi', 1n] })
    const result = await createVerifier(settings(), log).verify(request(stdJsonInput, contractIdentifier, deployed))
    expect(result.match).toBe('exact_match')
    expect(result.optimizer).toEqual({ enabled: true, runs: 200 })
  })
})

describe('bad input and the limits', () => {
  const someCode: Deployed = { address: '0x0000000000000000000000000000000000000001', txHash: '0x', creationInput: '0x', runtimeCode: '0x6080' }

  test('a contract absent from the input, and a compile error with the compiler\'s words', async () => {
    const verifier = createVerifier(settings(), log)
    const input = standardInput(['Counter.sol'])
    await expect(verifier.verify(request(input, 'src/Other.sol:Counter', someCode))).rejects.toThrow(new ContractNotFoundError('the contract src/Other.sol:Counter is not in the input: it has no source src/Other.sol'))
    await expect(verifier.verify(request(input, 'src/Counter.sol:Missing', someCode))).rejects.toBeInstanceOf(ContractNotFoundError)
    const broken = standardInput({ 'Counter.sol': fixtureSource('Counter.sol').replace('count += 1;', 'count += ;') })
    const error = await verifier.verify(request(broken, 'src/Counter.sol:Counter', someCode)).catch((caught) => caught)
    expect(error).toBeInstanceOf(CompileError)
    expect(error.message).toMatch(/^ParserError: .+ \(src\/Counter\.sol:\d+:\d+\)$/)
  })

  test('a version found nowhere names the version and every place looked in', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'verify-compilers-'))
    const places = compilerPlaces({ folder, home: emptyHome, env: {} })
    const verifier = createVerifier(settings({ places }), log)
    const error = await verifier.verify(request(standardInput(['Counter.sol']), 'src/Counter.sol:Counter', someCode, { compilerVersion: 'v0.8.99+commit.01234567' })).catch((caught) => caught)
    expect(error).toBeInstanceOf(CompilerNotFoundError)
    expect(error.message).toStartWith('no compiler v0.8.99+commit.01234567 is available (looked in: ')
    for (const place of [folder, join(emptyHome, '.svm/0.8.99/solc-0.8.99'), join(emptyHome, '.local/share/svm/0.8.99/solc-0.8.99'), join(emptyHome, '.cache/hardhat-nodejs'), 'the bundled solc-js 0.8.37']) {
      expect(error.message).toContain(place)
    }
  })

  test('a compile past its time limit is killed with a clear error', async () => {
    // A cold worker (loading the compiler takes about a second): one kept warm by an earlier compile may finish within the limit.
    endIdleWorkers()
    const verifier = createVerifier(settings({ timeoutSeconds: 0.05 }), log)
    const started = performance.now()
    const error = await verifier.verify(request(standardInput(['Counter.sol']), 'src/Counter.sol:Counter', someCode)).catch((caught) => caught)
    expect(error).toBeInstanceOf(CompileTimeoutError)
    expect(error.message).toBe('the compile took longer than 0.05 s')
    expect(performance.now() - started).toBeLessThan(2000)
  })

  test('the event loop keeps turning while a compile runs', async () => {
    // A cold worker, as a first compile has: loading the compiler is part of what must not stop the loop.
    endIdleWorkers()
    const verifier = createVerifier(settings(), log)
    let last = performance.now()
    let longest = 0
    const ticker = setInterval(() => {
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
    }, 5)
    const started = performance.now()
    await verifier.verify(request(standardInput(['PairFactory.sol', 'Counter.sol', 'Vault.sol']), 'src/PairFactory.sol:PairFactory', someCode))
    clearInterval(ticker)
    // The compile takes seconds; on the loop it would stop the ticker for all of them. Loading
    // the compiler in its worker costs the loop a few tens of milliseconds on a busy machine.
    const elapsed = performance.now() - started
    expect(elapsed).toBeGreaterThan(1000)
    expect(longest).toBeLessThan(Math.min(400, elapsed / 4))
  })

  test('a full queue refuses at once; the queue frees as compiles finish', async () => {
    const verifier = createVerifier(settings({ concurrency: 1, queue: 1 }), log)
    const input = standardInput(['Counter.sol'])
    const first = verifier.verify(request(input, 'src/Counter.sol:Counter', someCode))
    const second = verifier.verify(request(input, 'src/Counter.sol:Counter', someCode))
    expect(verifier.isFull()).toBe(true)
    const third = verifier.verify(request(input, 'src/Counter.sol:Counter', someCode))
    const refused = await third.catch((caught) => caught)
    expect(refused).toBeInstanceOf(VerificationQueueFullError)
    expect(refused.message).toBe(QUEUE_FULL_MESSAGE)
    expect(QUEUE_FULL_MESSAGE).toBe('the verification queue is full, try again')
    const results = await Promise.all([first, second])
    expect(results.map((result) => result.match)).toEqual([null, null])
    expect(verifier.isFull()).toBe(false)
    expect(verifier.queueLength()).toBe(0)
  })

  test("a native compiler in svm's folder (a stand-in answering --version and --standard-json) is used before the bundled one", async () => {
    const home = mkdtempSync(join(tmpdir(), 'verify-svm-'))
    const standin = installSolcStandin(home)
    const lines: string[] = []
    const logged = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } })
    const input = standardInput(['Counter.sol'])
    const deployed = await deployFixture(anvil.rpcUrl, compileFixture(input, 'src/Counter.sol:Counter'))
    const verifier = createVerifier(settings({ places: compilerPlaces({ home, env: {} }) }), logged)
    const result = await verifier.verify(request(input, 'src/Counter.sol:Counter', deployed))
    expect(result.match).toBe('exact_match')
    expect(standin).toBe(join(home, '.svm/0.8.37/solc-0.8.37'))
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ source: 'svm', match: 'exact_match' })
  })
})
