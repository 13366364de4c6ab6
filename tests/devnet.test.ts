import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { erc20Abi, parseEther, type Address } from 'viem'
import { parseConfig } from '../src/config/load.ts'
import { devAccounts } from '../src/devnet/accounts.ts'
import { ours, uniswap } from '../src/devnet/artifacts.ts'
import { deployContracts, DEPLOY_ORDER, DevnetError, NAME_PRICES_BX, predictedAddresses, type DevClients } from '../src/devnet/deploy.ts'
import { startDevnet, type Devnet } from '../src/devnet/devnet.ts'
import { decodeEvents, devNode, type DevNode } from './helpers/devChain.ts'
import { captureLog } from './helpers/service.ts'
import { configDir, fromSource, runOnce, startStack } from './helpers/stack.ts'
import { waitFor } from './helpers/wait.ts'

let devnet: Devnet
let node: DevNode
let clients: DevClients
const { log } = captureLog()

beforeAll(async () => {
  const { dir } = configDir()
  devnet = await startDevnet(parseConfig('[dev]\nport = 0\nblockTime = 1\n', `${dir}/stack.toml`), log)
  node = devNode(devnet.anvil.rpcUrl)
  clients = node.clients
})
afterAll(() => devnet?.stop())

const c = () => devnet.manifest!.contracts
const read: DevNode['read'] = (address, abi, functionName, args) => node.read(address, abi, functionName, args)
const logsOf = (address: Address) => clients.publicClient.getLogs({ address, fromBlock: 0n, toBlock: 'latest' })
const events = decodeEvents

describe('deployment', () => {
  test('every contract lands at its fixed address and the manifest says so', async () => {
    expect(devnet.manifest!.contracts).toEqual(predictedAddresses())
    expect(Object.keys(devnet.manifest!.contracts)).toEqual([...DEPLOY_ORDER])
    for (const address of Object.values(c())) {
      expect((await clients.publicClient.getCode({ address }))?.length ?? 0).toBeGreaterThan(2)
    }
    const written = JSON.parse(readFileSync(devnet.manifestPath, 'utf8'))
    expect(written).toEqual({ ...devnet.manifest })
    expect(written.chainId).toBe(78270)
    expect(written.deploymentBlock).toBe(1)
  })

  test('the tokens answer with their metadata', async () => {
    expect(await read(c().BX, erc20Abi, 'symbol')).toBe('BX')
    expect(await read(c().BX, erc20Abi, 'decimals')).toBe(18)
    expect(await read(c().WETH9, erc20Abi, 'symbol')).toBe('WETH')
    expect(await read(c().DUSD, erc20Abi, 'decimals')).toBe(6)
    expect(await read(c().UniswapV3Factory, uniswap.UniswapV3Factory.abi, 'feeAmountTickSpacing', [3000])).toBe(60)
  })

  test('a chain on which the deployer already sent something is refused', async () => {
    await expect(deployContracts(clients, { faucetDripEth: '1', faucetDripBx: '1' })).rejects.toThrow(DevnetError)
    await expect(deployContracts(clients, { faucetDripEth: '1', faucetDripBx: '1' })).rejects.toThrow('the dev chain is not fresh')
  })

  test('the chain mines on an interval once set up', async () => {
    const before = await clients.publicClient.getBlockNumber()
    // Nothing is sent: a block within two intervals (of a second) is the interval's.
    await waitFor(async () => (await clients.publicClient.getBlockNumber()) > before, 'a block mined on the interval', 2200)
  })
})

describe('the faucet contract', () => {
  // A fresh address (not the burn address 0x…dEaD, which the fee router's splits pay).
  const recipient = '0x000000000000000000000000000000000000beef' as Address
  const faucet = () => c().Faucet
  const drip = (from = devAccounts.operator, to: Address = recipient) =>
    clients.walletFor(from).writeContract({ address: faucet(), abi: ours.Faucet.abi, functionName: 'dripTo', args: [to] })

  test('is funded', async () => {
    expect(await clients.publicClient.getBalance({ address: faucet() })).toBe(parseEther('1000'))
    expect(await read(c().BX, erc20Abi, 'balanceOf', [faucet()])).toBe(parseEther('1000000'))
  })

  test('drips ether and BX once, then reverts within the cooldown', async () => {
    const hash = await drip()
    expect((await clients.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(await clients.publicClient.getBalance({ address: recipient })).toBe(parseEther('1'))
    expect(await read(c().BX, erc20Abi, 'balanceOf', [recipient])).toBe(parseEther('100'))
    expect(await read<bigint>(faucet(), ours.Faucet.abi, 'retryIn', [recipient])).toBeGreaterThan(86_000n)
    await expect(drip()).rejects.toThrow('CoolingDown')
  })

  test('only the operator may drip', async () => {
    await expect(drip(devAccounts.alice, devAccounts.carol.address)).rejects.toThrow('NotOperator')
  })

  test('an address may drip again a day later', async () => {
    await node.advanceTime(86_401)
    expect(await read<bigint>(faucet(), ours.Faucet.abi, 'retryIn', [recipient])).toBe(0n)
    const hash = await drip()
    expect((await clients.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
  })

  test('reverts when empty', async () => {
    const operator = clients.walletFor(devAccounts.operator)
    const set = (eth: bigint) =>
      operator.writeContract({ address: faucet(), abi: ours.Faucet.abi, functionName: 'setAmounts', args: [eth, parseEther('100')] })
    await clients.publicClient.waitForTransactionReceipt({ hash: await set(parseEther('5000')) })
    await expect(drip(devAccounts.operator, devAccounts.carol.address)).rejects.toThrow('FaucetEmpty')
    await clients.publicClient.waitForTransactionReceipt({ hash: await set(parseEther('1')) })
  })
})

describe('seeded activity', () => {
  test('ERC-20 transfers between several accounts', async () => {
    const transfers = events<{ from: Address; to: Address }>(erc20Abi, await logsOf(c().BX), 'Transfer')
    const senders = new Set(transfers.map((transfer) => transfer.args.from))
    expect(senders.size).toBeGreaterThanOrEqual(3)
    // Alice's 1000 BX, less the year of "carol.bx" Carol paid for.
    expect(await read<bigint>(c().BX, erc20Abi, 'balanceOf', [devAccounts.carol.address])).toBe(parseEther('1000') - parseEther(NAME_PRICES_BX[2]))
  })

  test('three constant-product pairs, one without WETH, with reserves, swaps both ways and a burn', async () => {
    const pairs = devnet.seed!.v2Pairs
    expect(pairs).toHaveLength(3)
    let withoutWeth = 0
    for (const pair of pairs) {
      const tokens = [await read<Address>(pair, uniswap.UniswapV2Pair.abi, 'token0'), await read<Address>(pair, uniswap.UniswapV2Pair.abi, 'token1')]
      if (!tokens.includes(c().WETH9)) withoutWeth++
      const [reserve0, reserve1] = await read<[bigint, bigint]>(pair, uniswap.UniswapV2Pair.abi, 'getReserves')
      expect(reserve0).toBeGreaterThan(0n)
      expect(reserve1).toBeGreaterThan(0n)
      const swaps = events<{ amount0In: bigint; amount1In: bigint }>(uniswap.UniswapV2Pair.abi, await logsOf(pair), 'Swap')
      expect(swaps.some((swap) => swap.args.amount0In > 0n)).toBe(true)
      expect(swaps.some((swap) => swap.args.amount1In > 0n)).toBe(true)
    }
    expect(withoutWeth).toBe(1)
    const burns = events(uniswap.UniswapV2Pair.abi, await logsOf(pairs[0]!), 'Burn')
    expect(burns).toHaveLength(1)
  })

  test('two concentrated pools at different fee tiers, swaps that cross ticks', async () => {
    const pools = devnet.seed!.v3Pools
    const fees = await Promise.all(pools.map((pool) => read<number>(pool, uniswap.UniswapV3Pool.abi, 'fee')))
    expect(new Set(fees).size).toBe(2)
    for (const pool of pools) {
      expect(await read<bigint>(pool, uniswap.UniswapV3Pool.abi, 'liquidity')).toBeGreaterThan(0n)
      const logs = await logsOf(pool)
      const mints = events<{ tickLower: number; tickUpper: number }>(uniswap.UniswapV3Pool.abi, logs, 'Mint')
      expect(mints.length).toBeGreaterThanOrEqual(2)
      const boundaries = mints.flatMap((mint) => [mint.args.tickLower, mint.args.tickUpper])
      // The price before the swaps (the Initialize event) and after each: between two of them
      // lies a position boundary, so a swap crossed an initialised tick.
      const initial = events<{ tick: number }>(uniswap.UniswapV3Pool.abi, logs, 'Initialize')[0]!.args.tick
      const ticks = [initial, ...events<{ tick: number }>(uniswap.UniswapV3Pool.abi, logs, 'Swap').map((swap) => swap.args.tick)]
      expect(ticks.length).toBeGreaterThanOrEqual(3)
      const crossed = ticks.slice(1).some((tick, index) => {
        const [low, high] = [Math.min(tick, ticks[index]!), Math.max(tick, ticks[index]!)]
        return boundaries.some((boundary) => boundary > low && boundary <= high)
      })
      expect(crossed).toBe(true)
    }
  })

  test('positions on several ranges, one decreased and collected, one fully closed', async () => {
    const npm = uniswap.NonfungiblePositionManager.abi
    const position = (id: bigint) => read<readonly [bigint, Address, Address, Address, number, number, number, bigint, bigint, bigint, bigint, bigint]>(c().NonfungiblePositionManager, npm, 'positions', [id])
    const { open, decreased, closed } = devnet.seed!.positions
    const ranges = new Set<string>()
    for (const id of open) {
      const [, , , , , lower, upper, liquidity] = await position(id)
      expect(liquidity).toBeGreaterThan(0n)
      ranges.add(`${lower}:${upper}`)
    }
    expect(ranges.size).toBe(open.length)
    const shut = await position(closed)
    expect(shut[7]).toBe(0n)
    expect(shut[10]).toBe(0n)
    expect(shut[11]).toBe(0n)
    const logs = await logsOf(c().NonfungiblePositionManager)
    const decreases = events<{ tokenId: bigint }>(npm, logs, 'DecreaseLiquidity').map((event) => event.args.tokenId)
    const collects = events<{ tokenId: bigint }>(npm, logs, 'Collect').map((event) => event.args.tokenId)
    expect(decreases).toEqual([decreased, closed])
    expect(collects).toEqual([decreased, closed])
  })

  test('NFTs with data: URIs, passed between accounts', async () => {
    const [first] = devnet.seed!.nftIds
    expect(await read(c().DemoNFT, ours.DemoNFT.abi, 'ownerOf', [first])).toBe(devAccounts.bob.address)
    const uri = await read<string>(c().DemoNFT, ours.DemoNFT.abi, 'tokenURI', [first])
    expect(uri).toStartWith('data:application/json;base64,')
    const metadata = JSON.parse(Buffer.from(uri.split(',')[1]!, 'base64').toString())
    expect(metadata.name).toBe('Sketch #1')
    expect(metadata.image).toStartWith('data:image/svg+xml;base64,')
    const transfers = events(ours.DemoNFT.abi, await logsOf(c().DemoNFT), 'Transfer')
    expect(transfers.length).toBe(9)
  })
})

describe('stack dev', () => {
  test('brings up the chain and the four services, writes the manifest, and stops both on SIGINT', async () => {
    const { dir, file } = configDir('[dev]\nport = 0\n[explorer]\nport = 0\nrateLimitPerMinute = 1234\n')
    const stack = await startStack(fromSource, ['dev', '--config', file], { cwd: dir, timeoutMs: 60_000 })
    const started = stack.lines.find((line) => line.msg === 'dev chain started')!
    const rpc = started.rpc as string
    const manifest = JSON.parse(readFileSync(`${dir}/data/l2-addresses.json`, 'utf8'))
    expect(Object.keys(manifest.contracts)).toEqual([...DEPLOY_ORDER])
    expect((await fetch(`${stack.urls.explorer}/api/health`)).status).toBe(200)
    // A fresh spool follows the new chain.
    const health = async () => (await (await fetch(`${stack.urls.exchange}/health`)).json()) as { spoolHeadBlock: number | null }
    await waitFor(async () => ((await health()).spoolHeadBlock ?? -1) >= manifest.deploymentBlock + 80, 'the spool to copy the seeded blocks')
    expect(await stack.stop('SIGINT')).toBe(0)
    const banner = await stack.stderr()
    expect(banner).toContain(`stack dev: chain 78270 at ${rpc}`)
    expect(banner).toContain(`browse     ${stack.urls.explorer}/`)
    expect(banner).toContain(`explorer   ${stack.urls.explorer}/api`)
    expect(banner).toContain("anvil's public dev key #1")
    // Every local client shares the explorer's minute: the banner says how a test suite raises it.
    expect(banner).toContain("The explorer's API answers 1234 requests a minute per client")
    expect(banner).toContain('sets explorer.rateLimitPerMinute in its config')
    await expect(fetch(rpc, { method: 'POST', body: '{}' })).rejects.toThrow()
    expect(existsSync(`${dir}/data/l2-addresses.json`)).toBe(true)
  })

  test("an anvil port already taken is one line, exit 1", async () => {
    const squatter = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('taken') })
    try {
      const { dir, file } = configDir(`[dev]\nport = ${squatter.port}\n`)
      const { code, stderr, stdout } = await runOnce(fromSource, ['dev', '--config', file], { cwd: dir })
      expect(code).toBe(1)
      expect(stderr.trim().split('\n')).toHaveLength(1)
      expect(stderr).toContain('anvil: the port is already in use')
      expect(stdout).not.toContain('listening')
    } finally {
      squatter.stop(true)
    }
  })
})
