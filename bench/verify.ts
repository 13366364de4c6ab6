// bun run bench:verify [verifications] [seconds] [connections]
//
// Verification through the Etherscan-compatible API with the bundled compiler (solc-js, in the
// compile worker): seconds from the POST of `verifysourcecode` to `Pass - Verified`, each contract
// a distinct source (so no compile is a repeat), the first one apart (it loads the compiler).
// Then the explorer's /api/stats under wrk from a second process, idle and while verifications
// compile one after another in the same process, as `stack start` runs them, with the ceiling
// of the same run: a bare Bun.serve in its own process returning the same bytes.
import { mkdirSync } from 'node:fs'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { createEtherscanApp } from '../src/etherscan/app.ts'
import { createExplorerApp } from '../src/explorer/app.ts'
import { listen } from '../src/http/serve.ts'
import { silentLogger } from '../src/log.ts'
import { startSpool } from '../src/spool/spool.ts'
import { spoolWiring } from '../src/streams.ts'
import { startNode } from '../tests/helpers/devChain.ts'
import { compileFixture, deployFixture, fixtureSource, SOLCJS_VERSION, standardInput } from '../tests/helpers/verifyFixtures.ts'
import { againstCeiling, fmt, HTTP_COLUMNS, httpCells, printTable, scratchDir, summarize, wrkLoad } from './harness.ts'

const [count = 8, seconds = 5, connections = 16] = process.argv.slice(2).map(Number)

// No compiler of forge's or hardhat's on this machine counts: every compile is the bundled one.
const home = scratchDir('verify-home')
mkdirSync(home, { recursive: true })
process.env.HOME = home
delete process.env.XDG_DATA_HOME
delete process.env.XDG_CACHE_HOME

const node = await startNode()
try {
  const config = parseConfig(
    `[chain]\nrpc = "${node.anvil.rpcUrl}"\nws = "${node.wsUrl}"\n[data]\ndir = "${scratchDir('verify')}"\n[spool]\npollMs = 100\n` +
      `[explorer]\nport = 0\nrateLimitPerMinute = 1000000000\n[etherscan]\nport = 0\nrateLimitPerMinute = 1000000000\n[verify]\nqueue = 64\n`,
    null,
  )
  const chain = createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId })
  const spool = await startSpool(config, spoolWiring(config), silentLogger)
  const context = { config, log: silentLogger, chain }
  const explorer = listen(createExplorerApp(context, spool), 'explorer', '127.0.0.1', 0)
  const etherscan = listen(createEtherscanApp(context, spool), 'etherscan', '127.0.0.1', 0)

  // Distinct sources: the same contract with a comment of its own, so each compile is new work.
  // Deployed one after another: one account sends them all.
  const copies: Array<{ input: ReturnType<typeof standardInput>; deployed: Awaited<ReturnType<typeof deployFixture>> }> = []
  for (let index = 0; index < count * 4; index++) {
    const input = standardInput({ 'Counter.sol': `${fixtureSource('Counter.sol')}\n// copy ${index}\n` })
    copies.push({ input, deployed: await deployFixture(node.anvil.rpcUrl, compileFixture(input, 'src/Counter.sol:Counter')) })
  }
  const head = Number(await chain.publicClient.getBlockNumber())
  while ((spool.health().spoolHeadBlock ?? -1) < head) await Bun.sleep(50)

  const api = async (fields: Record<string, string>) => {
    const response = await fetch(`${etherscan.url}/api`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })
    return (await response.json()) as { status: string; message: string; result: string }
  }
  /** Seconds from the request to the pass. */
  const verify = async ({ input, deployed }: (typeof copies)[number]): Promise<number> => {
    const started = performance.now()
    const submitted = await api({
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: deployed.address.toLowerCase(),
      sourceCode: JSON.stringify(input),
      codeformat: 'solidity-standard-json-input',
      contractname: 'src/Counter.sol:Counter',
      compilerversion: SOLCJS_VERSION,
      constructorArguements: '',
    })
    if (submitted.status !== '1') throw new Error(`verifysourcecode: ${submitted.result}`)
    for (;;) {
      const { result } = await api({ module: 'contract', action: 'checkverifystatus', guid: submitted.result })
      if (result === 'Pass - Verified') return (performance.now() - started) / 1000
      if (result !== 'Pending in queue') throw new Error(`checkverifystatus: ${result}`)
      await Bun.sleep(20)
    }
  }

  const first = await verify(copies[0]!)
  const durations: number[] = []
  for (const copy of copies.slice(1, count)) durations.push(await verify(copy))
  const times = summarize(durations.map((duration) => duration * 1000))

  // /api/stats idle, beside its ceiling; then under wrk while verifications compile back to back.
  await Bun.sleep(1200)
  const withItsCeiling = await againstCeiling(explorer.url, ['/api/stats'], { connections, seconds })
  // The idle and the busy run each once, the same way, one after the other.
  const idle = await wrkLoad(explorer.url, ['/api/stats'], { connections, seconds, warmupSeconds: 0 })
  let compiles = 0
  let busy = true
  const rest = copies.slice(count)
  const compiling = (async () => {
    for (const copy of rest) {
      if (!busy) break
      await verify(copy)
      compiles++
    }
  })()
  await Bun.sleep(300) // the first compile under way
  const loaded = await wrkLoad(explorer.url, ['/api/stats'], { connections, seconds, warmupSeconds: 0 })
  busy = false
  await compiling

  printTable(
    `verification through the Etherscan-compatible API with the bundled solc-js (${SOLCJS_VERSION}), Counter with a distinct comment each`,
    ['verification', 'seconds'],
    [
      ['the first (loads the compiler in its worker)', first.toFixed(2)],
      [`the next ${durations.length}: p50`, (times.p50 / 1000).toFixed(2)],
      [`the next ${durations.length}: max`, (times.max / 1000).toFixed(2)],
    ],
    ['seconds from the POST of verifysourcecode to checkverifystatus answering Pass - Verified (polled every 20 ms)'],
  )
  printTable(
    `explorer /api/stats under wrk from a second process, ${connections} connections, ${seconds} s`,
    ['while', ...HTTP_COLUMNS],
    [
      ['no verification (best of 3, beside its ceiling)', ...httpCells(withItsCeiling)],
      ['no verification', fmt.count(idle.perSecond), fmt.ms(idle.p50), fmt.ms(idle.p99), '', '', ''],
      [`verifications compiling back to back (${compiles} passed in the run)`, fmt.count(loaded.perSecond), fmt.ms(loaded.p50), fmt.ms(loaded.p99), '', '', ''],
    ],
    [
      `p99 while compiling over idle p99: ${fmt.ratio(loaded.p99, idle.p99)}x (the bound is 2x)`,
      'ceiling: a bare Bun.serve in its own process returning the same bytes and headers, loaded the same way in the same run',
      'the compiles run in a worker of the same process, as under stack start; the machine has the cores `nproc` says',
    ],
  )
  await etherscan.stop()
  await explorer.stop()
  await spool.stop()
} finally {
  await node.stop()
}
