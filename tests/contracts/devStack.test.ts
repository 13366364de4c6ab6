import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { getAddress, parseAbiItem, type Address } from 'viem'
import { createChain, type Chain } from '../../src/chain/client.ts'
import { devContractBook } from '../../src/cli/devContracts.ts'
import { loadConfig } from '../../src/config/load.ts'
import { createContractBook, type ContractBook, type KnownContract } from '../../src/contracts/book.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { uniswap } from '../../src/devnet/artifacts.ts'
import { predictedAddresses } from '../../src/devnet/deploy.ts'
import { openReader, SPOOL_FILE } from '../../src/spool/sqlite/db.ts'
import { writeForgeOut, writeHardhatArtifacts } from '../helpers/buildArtifacts.ts'
import { devNode, type DevNode } from '../helpers/devChain.ts'
import { compileSolidity } from '../helpers/solidity.ts'
import { configDir, fromSource, ROOT, runOnce, startReadyStack, type ReadyStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// `stack dev` from source, with a forge out/ and a hardhat artifacts/ beside its config (the
// default dev.artifacts): what the contract book knows once it is up, after a new build, and
// after `stack reset`. The book is read here over the stack's own spool file and node
// (devContractBook is the composition root's own), and the running stack's through the
// Etherscan listener's getabi.

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Counter {
    uint256 public immutable step;
    uint256 public count;
    constructor(uint256 step_) { step = step_; }
    function bump() external { count += step; }
}
`
const GREETER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Greeter {
    string public greeting = "hello";
    function set(string calldata value) external { greeting = value; }
}
`
const ADDER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Adder {
    uint256 public total;
    function add(uint256 value) external { total += value; }
}
`

const counterBuild = compileSolidity({ 'src/Counter.sol': COUNTER })
const greeterBuild = compileSolidity({ 'contracts/Greeter.sol': GREETER })

let dir: string
let file: string
let stack: ReadyStack
let node: DevNode
let reader: Database
let chain: Chain
/** The spool's verifications and the node, as every service reads them. */
let book: ContractBook
/** The composition root's book of `stack dev`: the same, and the local artifacts. */
let devBook: ContractBook
const contracts = predictedAddresses()

beforeAll(async () => {
  ;({ dir, file } = configDir(`[dev]\nport = 0\n[registry]\nsource = "${ROOT}/registry"\n`))
  writeForgeOut(join(dir, 'out'), counterBuild)
  writeHardhatArtifacts(join(dir, 'artifacts'), greeterBuild)
  stack = await startReadyStack(fromSource, ['dev', '--config', file], { cwd: dir })
  node = devNode(stack.status.rpcUrl)
  reader = openReader(join(stack.status.dataDir, SPOOL_FILE))
  chain = createChain({ rpcUrl: stack.status.rpcUrl, wsUrl: stack.status.wsUrl, chainId: 78270 })
  book = createContractBook(sqliteDb(reader), { chain })
  devBook = devContractBook(loadConfig(file), sqliteDb(reader), chain)
}, 120_000)

afterAll(async () => {
  reader?.close()
  await stack?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const hasFunction = (known: KnownContract | null, name: string) => known?.abi.some((item) => item.type === 'function' && item.name === name) ?? false

async function allPairs(): Promise<Address[]> {
  const count = await node.read<bigint>(contracts.UniswapV2Factory, uniswap.UniswapV2Factory.abi, 'allPairsLength')
  const pairs: Address[] = []
  for (let index = 0n; index < count; index++) pairs.push(await node.read<Address>(contracts.UniswapV2Factory, uniswap.UniswapV2Factory.abi, 'allPairs', [index]))
  return pairs
}

async function allPools(): Promise<Address[]> {
  const event = parseAbiItem('event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)')
  const logs = await chain.publicClient.getLogs({ address: contracts.UniswapV3Factory, event, fromBlock: 0n, toBlock: 'latest' })
  return logs.map((log) => log.args.pool!)
}

/** What the book says of the stack's contracts, pairs and pools, as the tests below expect it after start and after a reset. */
async function expectOwnContractsKnown() {
  const expected: Array<[Address, string, string]> = [
    [contracts.BX, 'Token', 'transfer'],
    [contracts.DUSD, 'Token', 'transfer'],
    [contracts.WETH9, 'WETH9', 'deposit'],
    [contracts.Faucet, 'Faucet', 'dripTo'],
    [contracts.UniswapV2Factory, 'UniswapV2Factory', 'createPair'],
    [contracts.UniswapV3Factory, 'UniswapV3Factory', 'createPool'],
    [contracts.NonfungiblePositionManager, 'NonfungiblePositionManager', 'mint'],
    [contracts.SwapRouter, 'SwapRouter', 'exactInputSingle'],
    [contracts.NonfungibleTokenPositionDescriptor, 'NonfungibleTokenPositionDescriptor', 'tokenURI'],
    [contracts.NFTDescriptor, 'NFTDescriptor', 'constructTokenURI'],
    [contracts.ArcadeBank, 'ArcadeBank', 'setGame'],
    [contracts.CoinFlip, 'CoinFlip', 'place'],
    [contracts.Lottery, 'Lottery', 'draw'],
  ]
  for (const [address, name, method] of expected) {
    const known = await book.lookup(address)
    expect(known?.name).toBe(name)
    expect(known?.by.kind).toBe('verified')
    if (known?.by.kind !== 'verified') throw new Error(`${name} is not verified`)
    expect(known.by.verification.origin).toBe('stack')
    expect(known.by.match).toBe('exact_match')
    expect(hasFunction(known, method)).toBe(true)
    const main = known.by.verification.details.contractIdentifier.split(':')[0]!
    expect(known.by.verification.details.sources[main]).toMatch(new RegExp(`(contract|library) ${name}\\b`))
  }

  const pairs = await allPairs()
  expect(pairs.length).toBeGreaterThanOrEqual(3)
  const firstPair = await book.lookup(pairs[0]!)
  expect(firstPair?.by.kind).toBe('verified')
  for (const pair of pairs.slice(1)) {
    const known = await book.lookup(pair)
    expect(known?.name).toBe('UniswapV2Pair')
    expect(known?.by.kind).toBe('similar')
    expect(known?.by.kind === 'similar' && known.by.via).toBe(getAddress(pairs[0]!))
    expect(hasFunction(known, 'swap')).toBe(true)
  }
  const pools = await allPools()
  expect(pools.length).toBeGreaterThanOrEqual(2)
  expect((await book.lookup(pools[0]!))?.by.kind).toBe('verified')
  for (const pool of pools.slice(1)) {
    const known = await book.lookup(pool)
    expect(known?.name).toBe('UniswapV3Pool')
    expect(known?.by.kind).toBe('similar')
    expect(known?.by.kind === 'similar' && known.by.via).toBe(getAddress(pools[0]!))
    expect(hasFunction(known, 'swap')).toBe(true)
  }
}

describe('stack dev', () => {
  test("verifies the stack's own contracts as it deploys them: name, ABI and sources, exact matches", async () => {
    const said = stack
      .log()
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === "the stack's own contracts verified")
    // the 24 deployed contracts (BX and DUSD are one artifact at two addresses), the first pair and the first pool
    expect(said?.contracts).toBe(26)
    await expectOwnContractsKnown()
  })

  test('the Uniswap V3 pool is verified with its immutables masked and the sources of V3 core', async () => {
    const [pool] = await allPools()
    const known = await book.lookup(pool!)
    if (known?.by.kind !== 'verified') throw new Error('the first pool is not verified')
    const { details, compilerVersion } = known.by.verification
    expect(compilerVersion).toBe('v0.7.6+commit.7338295f')
    expect(details.optimizer).toEqual({ enabled: true, runs: 800 })
    // factory, token0, token1, fee, tickSpacing, maxLiquidityPerTick and NoDelegateCall's own address
    expect(Object.values(details.immutableReferences).flat().length).toBeGreaterThanOrEqual(7)
    expect(Object.keys(details.sources)).toContain('contracts/UniswapV3Pool.sol')
    expect(Object.keys(details.sources)).toContain('contracts/libraries/TickMath.sol')
  })

  test('the position descriptor names the NFT descriptor library linked into it', async () => {
    const known = await book.lookup(contracts.NonfungibleTokenPositionDescriptor)
    if (known?.by.kind !== 'verified') throw new Error('the descriptor is not verified')
    expect(known.by.verification.details.libraries).toEqual({ 'contracts/libraries/NFTDescriptor.sol:NFTDescriptor': contracts.NFTDescriptor })
    expect(Object.keys(known.by.verification.details.sources)).toContain('base64-sol/base64.sol')
  })

  test('a contract deployed from a forge out/ or hardhat artifacts/ beside the config is known by its artifact', async () => {
    const counter = await node.deploy(devAccounts.alice, counterBuild.contracts['src/Counter.sol:Counter']!, [5n])
    const greeter = await node.deploy(devAccounts.alice, greeterBuild.contracts['contracts/Greeter.sol:Greeter']!, [])
    const known = await devBook.lookup(counter)
    expect(known?.name).toBe('Counter')
    expect(known?.by).toMatchObject({ kind: 'artifact', match: 'exact_match', path: join(dir, 'out', 'Counter.sol', 'Counter.json'), sources: { 'src/Counter.sol': COUNTER } })
    expect(hasFunction(known, 'bump')).toBe(true)
    const fromHardhat = await devBook.lookup(greeter)
    expect(fromHardhat?.by).toMatchObject({
      kind: 'artifact',
      match: 'exact_match',
      path: join(dir, 'artifacts', 'contracts/Greeter.sol', 'Greeter.json'),
      sources: { 'contracts/Greeter.sol': GREETER },
    })
    // Artifacts are for `stack dev`'s book alone.
    expect(await book.lookup(counter)).toBeNull()
  })

  test("the Etherscan listener's getabi answers from the same book: our contracts, a pair by the same code, an artifact", async () => {
    const getabi = async (address: string) =>
      (await (await fetch(`${stack.status.services.etherscan.url}/api?module=contract&action=getabi&address=${address.toLowerCase()}`)).json()) as { status: string; message: string; result: string }
    const names = (answer: { result: string }) => (JSON.parse(answer.result) as Array<{ name?: string }>).map((item) => item.name)
    for (const [address, method] of [
      [contracts.BX, 'transfer'],
      [contracts.Faucet, 'dripTo'],
      [contracts.UniswapV2Factory, 'createPair'],
    ] as const) {
      const answer = await getabi(address)
      expect(answer).toMatchObject({ status: '1', message: 'OK' })
      expect(names(answer)).toContain(method)
    }
    const pairs = await allPairs()
    expect(names(await getabi(pairs.at(-1)!))).toContain('swap')
    const counter = await node.deploy(devAccounts.carol, counterBuild.contracts['src/Counter.sol:Counter']!, [9n])
    expect(names(await getabi(counter))).toContain('bump')
    expect(await getabi(devAccounts.carol.address)).toMatchObject({ status: '0', message: 'NOTOK' })
  })

  test('a new build while it runs is picked up without a restart', async () => {
    const adderBuild = compileSolidity({ 'src/Adder.sol': ADDER })
    const adder = await node.deploy(devAccounts.bob, adderBuild.contracts['src/Adder.sol:Adder']!, [])
    expect(await devBook.lookup(adder)).toBeNull()
    writeForgeOut(join(dir, 'out'), adderBuild)
    await waitFor(async () => (await devBook.lookup(adder))?.name === 'Adder', 'the new artifact picked up', 10_000)
    expect((await devBook.lookup(adder))?.by.kind).toBe('artifact')
  })

  test('after stack reset the own contracts, every pair and every pool are known as before', async () => {
    const reset = await runOnce(fromSource, ['reset', '--config', file], { cwd: dir })
    expect(reset.code).toBe(0)
    await expectOwnContractsKnown()
  })
})
