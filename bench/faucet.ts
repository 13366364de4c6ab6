// bun run bench:faucet [drips] [concurrency]
//
// Drips per second end to end (HTTP POST /drip against the faucet service, anvil mining each
// transaction as it arrives), against a ceiling measured in the same run: the same dripTo
// calls signed and sent straight through viem, with no HTTP, no quota and no checks. Then the
// quota journal's cost per drip (a reservation and a commit, each fsynced) against a plain
// append of the same lines without fsync.
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { createNonceManager } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { jsonRpc } from 'viem/nonce'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { DEV_OPERATOR_KEY } from '../src/devnet/accounts.ts'
import { MANIFEST_FILE } from '../src/devnet/devnet.ts'
import { createFaucetApp } from '../src/faucet/app.ts'
import { faucetAbi } from '../src/faucet/contract.ts'
import { QuotaBook } from '../src/faucet/quota/book.ts'
import { listen } from '../src/http/serve.ts'
import { silentLogger } from '../src/log.ts'
import { freshAddress, startFaucetChain } from '../tests/faucet/helpers.ts'
import { fmt, printTable, runConcurrently, scratchDir, summarize } from './harness.ts'

const [drips = 200, concurrency = 16] = process.argv.slice(2).map(Number)

// Small drips so that the faucet's funding covers every drip of the run.
const dev = await startFaucetChain({ faucetDripEth: '0.001', faucetDripBx: '1' })
try {
  const { faucet } = dev
  const chain = createChain({ rpcUrl: dev.rpcUrl, wsUrl: dev.wsUrl, chainId: 78270 })
  const rows: string[][] = []
  const row = (what: string, result: { durations: number[]; seconds: number }, count: number) => {
    const { p50, p95 } = summarize(result.durations)
    rows.push([what, (count / result.seconds).toFixed(1), fmt.ms(p50), fmt.ms(p95)])
    return count / result.seconds
  }

  // 1. The ceiling: dripTo straight through viem, receipts awaited, nothing else.
  const operator = privateKeyToAccount(DEV_OPERATOR_KEY, { nonceManager: createNonceManager({ source: jsonRpc() }) })
  const wallet = chain.walletFor(operator)
  const raw = await runConcurrently(drips, concurrency, async () => {
    const hash = await wallet.writeContract({ address: faucet, abi: faucetAbi, functionName: 'dripTo', args: [freshAddress()], chain: wallet.chain, account: operator })
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
    if (receipt.status !== 'success') throw new Error('raw drip reverted')
  })
  const ceiling = row(`raw viem dripTo, ${concurrency} at a time`, raw, drips)

  // 2. End to end: POST /drip against the faucet service, one client per request.
  const dataDir = scratchDir('faucet')
  writeFileSync(join(dataDir, MANIFEST_FILE), `${JSON.stringify(dev.manifest, null, 2)}\n`)
  const config = parseConfig(`[data]\ndir = "${dataDir}"\n[faucet]\ntrustedProxyHops = 1\n`, null, { FAUCET_OPERATOR_KEY: DEV_OPERATOR_KEY })
  const service = listen(await createFaucetApp({ config, log: silentLogger, chain }), 'faucet', '127.0.0.1', 0)
  let client = 0
  const drip = async () => {
    const response = await fetch(`${service.url}/drip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `2001:db8::${(++client).toString(16)}` },
      body: JSON.stringify({ address: freshAddress() }),
    })
    if (response.status !== 200) throw new Error(`drip answered ${response.status}: ${await response.text()}`)
  }
  const endToEnd = row(`POST /drip, ${concurrency} at a time`, await runConcurrently(drips, concurrency, drip), drips)
  const sequential = Math.min(drips, 100)
  row('POST /drip, one at a time', await runConcurrently(sequential, 1, drip), sequential)
  await service.stop()

  // 3. The journal: a reservation and its commit per drip, each fsynced, against plain appends.
  const journalOps = 5000
  const book = QuotaBook.open({
    dir: scratchDir('faucet-journal'),
    limits: { perClient: 1e9, perAddress: 1e9, global: 1e9, allTime: 1e9 },
    maxBytes: 1 << 20,
    maxAgeMs: 86_400_000,
    clock: Date.now,
  })
  const journal = await runConcurrently(journalOps, 1, async () => {
    const reservation = book.reserve('2001:db8::1', freshAddress())
    book.commit(reservation, '0x4567efc67c3387f8b15233d6fb05ad6d4aa8ba28209028ef22403850bdfccb9f')
  })
  book.close()
  const plainFile = openSync(join(scratchDir('faucet-append'), 'lines'), 'a')
  const line = Buffer.from(`${JSON.stringify({ type: 'reserve', id: 'abcd1234-1', at: new Date().toISOString(), day: '2026-01-01', client: '2001:db8::1', address: freshAddress() })}\n`)
  const plain = await runConcurrently(journalOps, 1, async () => {
    writeSync(plainFile, line)
    writeSync(plainFile, line)
  })
  closeSync(plainFile)
  const journalRate = row('journal: reserve + commit (2 fsyncs)', journal, journalOps)
  const plainRate = row('plain append of 2 lines, no fsync', plain, journalOps)

  printTable(`faucet bench: ${drips} drips, anvil mining on arrival, ${concurrency} in flight`, ['what', 'per s', 'p50 ms', 'p95 ms'], rows, [
    `end to end / raw viem ceiling: ${fmt.ratio(endToEnd, ceiling)}`,
    `journal per drip: ${((1000 / journalRate) * 1000).toFixed(0)} µs (plain append: ${((1000 / plainRate) * 1000).toFixed(1)} µs)`,
  ])
} finally {
  await dev.stop()
}
