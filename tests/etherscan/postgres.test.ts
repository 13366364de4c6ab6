import type { SQL } from 'bun'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { createEtherscanApp } from '../../src/etherscan/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import type { Database } from '../../src/spool/sqlite/db.ts'
import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import { postgresDb } from '../../src/spool/postgres/reader.ts'
import type { Spool } from '../../src/spool/spool.ts'
import { frozenOnBothEngines } from '../helpers/spoolEngines.ts'
import { startSeededDevStack, type SeededDevStack } from '../helpers/seededDevStack.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'

// The Etherscan-compatible listener over the seeded dev chain's spool copied into PostgreSQL
// (the copy `stack db import` makes) answers every read the same, byte for byte, as the same
// listener over the embedded file: the same node behind both, the same spool in each engine.
// The node's own answers (balances, calls) are the node's on both and are not compared here.

const TREASURY = devAccounts.treasury.address.toLowerCase()
const ALICE = devAccounts.alice.address.toLowerCase()
const BX = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const WETH = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

let dev: SeededDevStack
let file: Database
let pool: SQL
let embedded: Listening
let postgres: Listening

beforeAll(async () => {
  dev = await startSeededDevStack(100_000)
  const nodeUrl = dev.stack.lines.find((line) => line.msg === 'dev chain started')!.rpc as string
  // The spool as it stands now, in each engine: the dev chain keeps making blocks, and the two
  // must hold the same head.
  ;({ file, pool } = await frozenOnBothEngines(join(dev.dir, 'data', 'spool.db'), 'etherscan'))
  const toml = `[chain]\nrpc = "${nodeUrl}"\nws = "ws://127.0.0.1:9"\n[etherscan]\nrateLimitPerMinute = 1000000000\n`
  embedded = serveOnFreePort(createEtherscanApp(testContext(toml), { reader: sqliteDb(file) } as Spool), 'etherscan')
  postgres = serveOnFreePort(createEtherscanApp(testContext(toml), { reader: postgresDb(pool) } as Spool), 'etherscan')
}, 120_000)
afterAll(async () => {
  await embedded?.stop()
  await postgres?.stop()
  await pool?.close()
  file?.close()
  await dev?.stack.stop()
  if (dev) rmSync(dev.dir, { recursive: true, force: true })
})

const text = async (base: string, query: string) => {
  const response = await fetch(`${base}/api?${query}`)
  return `${response.status} ${await response.text()}`
}

test('every read answers the same from PostgreSQL as from the embedded file', async () => {
  const head = Number((JSON.parse((await text(embedded.url, 'module=proxy&action=eth_blockNumber')).slice(4)) as { result: string }).result)
  const { result: hashes } = JSON.parse((await text(embedded.url, `module=account&action=txlist&address=${TREASURY}&page=1&offset=5&sort=desc`)).slice(4)) as { result: Array<{ hash: string }> }
  expect(hashes.length).toBe(5)
  const queries = [
    ...[TREASURY, ALICE, BX, WETH].flatMap((address) => [
      `module=account&action=txlist&address=${address}&sort=asc`,
      `module=account&action=txlist&address=${address}&page=2&offset=7&sort=desc`,
      `module=account&action=txlist&address=${address}&startblock=10&endblock=120`,
      `module=account&action=txlistinternal&address=${address}`,
      `module=account&action=tokentx&address=${address}&sort=desc`,
      `module=account&action=tokennfttx&address=${address}`,
      `module=account&action=token1155tx&address=${address}`,
      `module=account&action=getminedblocks&address=${address}`,
      `module=contract&action=getabi&address=${address}`,
      `module=contract&action=getsourcecode&address=${address}`,
    ]),
    `module=account&action=tokentx&contractaddress=${BX}&page=1&offset=20`,
    `module=account&action=tokentx&address=${ALICE}&contractaddress=${BX}`,
    `module=account&action=txlistinternal&startblock=0&endblock=${head}`,
    `module=contract&action=getcontractcreation&contractaddresses=${BX},${WETH}`,
    `module=logs&action=getLogs&address=${BX}&fromBlock=0&toBlock=${head}`,
    `module=logs&action=getLogs&topic0=${TRANSFER}&fromBlock=0&toBlock=${head}&page=2&offset=30`,
    `module=logs&action=getLogs&topic0=${TRANSFER}&topic1=0x${TREASURY.slice(2).padStart(64, '0')}&topic0_1_opr=and&fromBlock=0&toBlock=${head}`,
    ...[1, 2, Math.floor(head / 2), head].map((block) => `module=block&action=getblockreward&blockno=${block}`),
    `module=block&action=getblocknobytime&timestamp=1&closest=after`,
    ...hashes.flatMap(({ hash }) => [
      `module=transaction&action=getstatus&txhash=${hash}`,
      `module=transaction&action=gettxreceiptstatus&txhash=${hash}`,
      `module=proxy&action=eth_getTransactionByHash&txhash=${hash}`,
      `module=proxy&action=eth_getTransactionReceipt&txhash=${hash}`,
    ]),
    `module=proxy&action=eth_getBlockByNumber&tag=0x5&boolean=true`,
  ]
  for (const query of queries) {
    const [fromFile, fromPostgres] = await Promise.all([text(embedded.url, query), text(postgres.url, query)])
    expect([query, fromPostgres]).toEqual([query, fromFile])
  }
  // Not a comparison of two empty answers: the lists hold rows.
  expect((await text(postgres.url, `module=account&action=tokentx&address=${ALICE}`)).length).toBeGreaterThan(1000)
}, 120_000)
