import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createPublicClient, encodeFunctionData, http, parseAbi, type Hex, type PublicClient } from 'viem'
import { aggregatorV3Abi } from '../../src/chain/ethUsdFeed.ts'
import { createRpc, type Rpc } from '../../src/chain/rpc.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { createEtherscanApp } from '../../src/etherscan/app.ts'
import { CALL_GAS_CAP } from '../../src/etherscan/node.ts'
import { NODE_AWAY } from '../../src/etherscan/params.ts'
import type { Listening } from '../../src/http/serve.ts'
import { openReader } from '../../src/spool/sqlite/db.ts'
import type { Spool } from '../../src/spool/spool.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { startSeededDevStack, type SeededDevStack } from '../helpers/seededDevStack.ts'

// The proxy module, blocks, stats, balances and every refusal, on the seeded dev chain; and the
// listener over the same spool with its node away.

const TREASURY = devAccounts.treasury.address.toLowerCase()
const ALICE = devAccounts.alice.address.toLowerCase()
const BX = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const FEED = '0x959922be3caee4b8cd9a407cc3ac1c251c2007b1'
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)'])

let dev: SeededDevStack
let etherscan: string
let node: PublicClient
let rpc: Rpc
let away: Listening
let reader: ReturnType<typeof openReader>

const get = async (base: string, query: string): Promise<any> => (await fetch(`${base}/api?${query}`)).json()
const api = (query: string) => get(etherscan, query)

beforeAll(async () => {
  dev = await startSeededDevStack(100_000)
  etherscan = dev.stack.urls.etherscan!
  const nodeUrl = dev.stack.lines.find((line) => line.msg === 'dev chain started')!.rpc as string
  node = createPublicClient({ transport: http(nodeUrl) }) as PublicClient
  rpc = createRpc(nodeUrl)
  // The same spool, read by a listener whose node is not there (nothing listens on port 9).
  reader = openReader(join(dev.dir, 'data', 'spool.db'))
  const context = testContext('[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n')
  away = serveOnFreePort(createEtherscanApp(context, { reader: sqliteDb(reader) } as Spool), 'etherscan')
}, 90_000)
afterAll(async () => {
  await away?.stop()
  reader?.close()
  await dev?.stack.stop()
  if (dev) rmSync(dev.dir, { recursive: true, force: true })
})

describe('proxy', () => {
  test('answers in JSON-RPC shape what the node answers', async () => {
    const head = await rpc.call<Hex>('eth_blockNumber')
    expect(await api('module=proxy&action=eth_blockNumber')).toEqual({ jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) })
    const block = await api(`module=proxy&action=eth_getBlockByNumber&tag=0x5&boolean=true&id=7`)
    expect(block).toEqual({ jsonrpc: '2.0', id: 7, result: await rpc.call('eth_getBlockByNumber', ['0x5', true]) })
    const {
      result: [row],
    } = await api(`module=account&action=txlist&address=${TREASURY}&page=1&offset=1&sort=desc`)
    for (const [action, method] of [
      ['eth_getTransactionByHash', 'eth_getTransactionByHash'],
      ['eth_getTransactionReceipt', 'eth_getTransactionReceipt'],
    ]) {
      expect((await api(`module=proxy&action=${action}&txhash=${row.hash}`)).result).toEqual(await rpc.call(method!, [row.hash]))
    }
    expect((await api(`module=proxy&action=eth_getTransactionCount&address=${TREASURY}&tag=latest`)).result).toBe(await rpc.call('eth_getTransactionCount', [TREASURY, 'latest']))
    expect((await api(`module=proxy&action=eth_getCode&address=${BX}&tag=latest`)).result).toBe(await rpc.call('eth_getCode', [BX, 'latest']))
    expect((await api(`module=proxy&action=eth_getStorageAt&address=${BX}&position=0x2&tag=latest`)).result).toBe(await rpc.call('eth_getStorageAt', [BX, '0x2', 'latest']))
    expect((await api(`module=proxy&action=eth_getBlockTransactionCountByNumber&tag=0x5`)).result).toBe(await rpc.call('eth_getBlockTransactionCountByNumber', ['0x5']))
    expect((await api(`module=proxy&action=eth_getTransactionByBlockNumberAndIndex&tag=0x5&index=0x0`)).result).toEqual(await rpc.call('eth_getTransactionByBlockNumberAndIndex', ['0x5', '0x0']))
    expect((await api('module=proxy&action=eth_gasPrice')).result).toMatch(/^0x[0-9a-f]+$/)
    const data = encodeFunctionData({ abi: erc20, functionName: 'balanceOf', args: [TREASURY as Hex] })
    expect((await api(`module=proxy&action=eth_call&to=${BX}&data=${data}&tag=latest`)).result).toBe(await rpc.call('eth_call', [{ to: BX, data }, 'latest']))
    const estimate = await api(`module=proxy&action=eth_estimateGas&from=${ALICE}&to=${TREASURY}&value=0x1`)
    expect(BigInt(estimate.result)).toBe(21000n)
    expect(BigInt(head)).toBeGreaterThan(0n)
  })

  test('carries the node’s errors, a revert with its data, and holds a call to the gas cap', async () => {
    const withdraw = encodeFunctionData({ abi: parseAbi(['function withdraw(uint256)']), functionName: 'withdraw', args: [10n ** 30n] })
    const reverted = await api(`module=proxy&action=eth_call&from=${ALICE}&to=0xe7f1725e7734ce288f8367e1bb143e90bb3f0512&data=${withdraw}`)
    expect(reverted.jsonrpc).toBe('2.0')
    expect(reverted.error.code).toBe(3)
    expect(reverted.error.message).toContain('WETH9: balance')
    expect(reverted.error.data).toMatch(/^0x08c379a0/)
    // Code that answers the gas it was left (GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN), run as
    // a creation: asked with far more gas than the cap, it runs with the cap.
    const gasLeft = async (gas: string) => BigInt((await api(`module=proxy&action=eth_call&from=${ALICE}&data=0x5a60005260206000f3${gas}`)).result)
    for (const gas of ['&gas=0xffffffffffff', '']) {
      const left = await gasLeft(gas)
      expect(left).toBeLessThanOrEqual(CALL_GAS_CAP)
      expect(left).toBeGreaterThan(CALL_GAS_CAP - 100_000n)
    }
    expect(await gasLeft('&gas=0x30d40')).toBeLessThan(200_000n)
  })

  test('refuses eth_sendRawTransaction and bad parameters in JSON-RPC’s shape', async () => {
    const refused = await api('module=proxy&action=eth_sendRawTransaction&hex=0x02f8')
    expect(refused).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringContaining('eth_sendRawTransaction is refused') } })
    const post = await fetch(`${etherscan}/api`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'module=proxy&action=eth_sendRawTransaction&hex=0x02f8' })
    expect(((await post.json()) as any).error.code).toBe(-32000)
    for (const query of [
      'action=eth_getBlockByNumber&tag=5&boolean=true',
      'action=eth_getBlockByNumber&tag=0x05&boolean=true',
      'action=eth_getBlockByNumber&tag=0x5&boolean=yes',
      'action=eth_getTransactionByHash&txhash=0x1234',
      'action=eth_getCode&address=0x1234&tag=latest',
      'action=eth_call&to=0x5fbdb2315678afecb367f032d93f642f64180aa3&data=0x123',
      'action=eth_getStorageAt&address=0x5fbdb2315678afecb367f032d93f642f64180aa3&position=xyz',
    ]) {
      const answer = await api(`module=proxy&${query}`)
      expect(answer).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringContaining('invalid argument') } })
    }
    expect(await api('module=proxy&action=eth_sign')).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Missing Or invalid Action name' })
  })
})

describe('with the node away', () => {
  test('blocks, transactions and receipts come from the spool in the node’s shape; the rest is the JSON-RPC error', async () => {
    const base = away.url
    const {
      result: [row],
    } = await api(`module=account&action=txlist&address=${TREASURY}&page=1&offset=1&sort=desc`)
    const pick = (whole: Record<string, unknown>, part: Record<string, unknown>) => Object.fromEntries(Object.keys(part).map((key) => [key, whole[key]]))
    const tx = (await get(base, `module=proxy&action=eth_getTransactionByHash&txhash=${row.hash}`)).result
    const nodeTx = await rpc.call<Record<string, unknown>>('eth_getTransactionByHash', [row.hash])
    expect(Object.keys(tx).length).toBeGreaterThan(10)
    expect(tx).toEqual(pick(nodeTx, tx))
    const receipt = (await get(base, `module=proxy&action=eth_getTransactionReceipt&txhash=${row.hash}`)).result
    const nodeReceipt = await rpc.call<Record<string, any>>('eth_getTransactionReceipt', [row.hash])
    expect(receipt.logs.length).toBeGreaterThan(0)
    const { logs, ...fields } = receipt
    expect(fields).toEqual(pick(nodeReceipt, fields))
    expect(logs.length).toBe(nodeReceipt.logs.length)
    logs.forEach((log: Record<string, unknown>, index: number) => expect(log).toEqual(pick(nodeReceipt.logs[index], log)))
    const blockNumber = BigInt(row.blockNumber)
    const blockAnswer = await get(base, `module=proxy&action=eth_getBlockByNumber&tag=0x${blockNumber.toString(16)}&boolean=false`)
    const block = blockAnswer.result
    const nodeBlock = await rpc.call<Record<string, unknown>>('eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, false])
    expect(block).toEqual(pick(nodeBlock, block))
    expect(block.transactions).toContain(row.hash)
    const count = (await get(base, `module=proxy&action=eth_getBlockTransactionCountByNumber&tag=0x${blockNumber.toString(16)}`)).result
    expect(count).toBe(await rpc.call('eth_getBlockTransactionCountByNumber', [`0x${blockNumber.toString(16)}`]))
    for (const query of ['action=eth_blockNumber', `action=eth_getCode&address=${BX}`, `action=eth_call&to=${BX}&data=0x18160ddd`]) {
      expect(await get(base, `module=proxy&${query}`)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringContaining('the node cannot be reached') } })
    }
    // What only the node knows is Etherscan's NOTOK that says so; the lists still answer from the spool.
    for (const query of [
      `module=account&action=balance&address=${TREASURY}`,
      `module=account&action=tokenbalance&contractaddress=${BX}&address=${TREASURY}`,
      `module=stats&action=tokensupply&contractaddress=${BX}`,
    ]) {
      expect(await get(base, query)).toEqual({ status: '0', message: 'NOTOK', result: NODE_AWAY })
    }
    expect(await get(base, `module=account&action=txlist&address=${TREASURY}&page=1&offset=1&sort=desc`)).toEqual({ status: '1', message: 'OK', result: [row] })
  })
})

describe('balances, blocks and stats', () => {
  test('balance, balancemulti and tokenbalance read the node', async () => {
    expect(await api(`module=account&action=balance&address=${TREASURY}&tag=latest`)).toEqual({ status: '1', message: 'OK', result: String(await node.getBalance({ address: TREASURY as Hex })) })
    const multi = await api(`module=account&action=balancemulti&address=${TREASURY},${ALICE}&tag=latest`)
    expect(multi).toEqual({
      status: '1',
      message: 'OK',
      result: [
        { account: TREASURY, balance: String(await node.getBalance({ address: TREASURY as Hex })) },
        { account: ALICE, balance: String(await node.getBalance({ address: ALICE as Hex })) },
      ],
    })
    const tokens = await node.readContract({ address: BX, abi: erc20, functionName: 'balanceOf', args: [TREASURY as Hex] })
    expect(await api(`module=account&action=tokenbalance&contractaddress=${BX}&address=${TREASURY}&tag=latest`)).toEqual({ status: '1', message: 'OK', result: String(tokens) })
    const supply = await node.readContract({ address: BX, abi: erc20, functionName: 'totalSupply' })
    expect(await api(`module=stats&action=tokensupply&contractaddress=${BX}`)).toEqual({ status: '1', message: 'OK', result: String(supply) })
  })

  test('getblockreward, getblocknobytime, getblockcountdown and getminedblocks from the spool', async () => {
    const number = 5n
    const block = await node.getBlock({ blockNumber: number })
    let tips = 0n
    for (const hash of block.transactions) {
      const receipt = await node.getTransactionReceipt({ hash })
      tips += receipt.gasUsed * (receipt.effectiveGasPrice - (block.baseFeePerGas ?? 0n))
    }
    expect(await api(`module=block&action=getblockreward&blockno=${number}`)).toEqual({
      status: '1',
      message: 'OK',
      result: { blockNumber: '5', timeStamp: String(block.timestamp), blockMiner: block.miner.toLowerCase(), blockReward: String(tips), uncles: [], uncleInclusionReward: '0' },
    })
    const before = await api(`module=block&action=getblocknobytime&timestamp=${block.timestamp}&closest=before`)
    const found = await node.getBlock({ blockNumber: BigInt(before.result) })
    expect(found.timestamp).toBeLessThanOrEqual(block.timestamp)
    const next = await node.getBlock({ blockNumber: BigInt(before.result) + 1n })
    expect(next.timestamp).toBeGreaterThan(block.timestamp)
    const after = await api(`module=block&action=getblocknobytime&timestamp=${block.timestamp + 1n}&closest=after`)
    expect(after.result).toBe(String(next.number))
    expect(await api('module=block&action=getblocknobytime&timestamp=1&closest=before')).toEqual({ status: '0', message: 'NOTOK', result: 'Error! No closest block found' })
    const countdown = await api('module=block&action=getblockcountdown&blockno=99999999')
    expect(countdown.status).toBe('1')
    expect(Number(countdown.result.RemainingBlock)).toBe(99999999 - Number(countdown.result.CurrentBlock))
    expect(await api('module=block&action=getblockcountdown&blockno=1')).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Block number already pass' })
    const mined = await api(`module=account&action=getminedblocks&address=${block.miner}&page=1&offset=3`)
    expect(mined.result.map((row: any) => row.blockNumber)).toEqual(['0', '1', '2'])
  })

  test('ethprice is the price feed’s answer and time; ethsupply is refused, not made up', async () => {
    const [, answer, , updatedAt] = await node.readContract({ address: FEED, abi: aggregatorV3Abi, functionName: 'latestRoundData' })
    const decimals = await node.readContract({ address: FEED, abi: aggregatorV3Abi, functionName: 'decimals' })
    const price = await api('module=stats&action=ethprice')
    expect(price.status).toBe('1')
    expect(price.result.ethusd_timestamp).toBe(String(updatedAt))
    const [whole, fraction = ''] = price.result.ethusd.split('.')
    expect(BigInt(whole + fraction.padEnd(decimals, '0'))).toBe(answer)
    expect(await api('module=stats&action=ethsupply')).toEqual({ status: '0', message: 'NOTOK', result: expect.stringContaining('not known') })
    // With the node away there is no fresh reading, and the answer says so.
    expect(await get(away.url, 'module=stats&action=ethprice')).toEqual({ status: '0', message: 'NOTOK', result: expect.stringContaining('No fresh ETH/USD price') })
  })
})

describe('refusals in Etherscan’s words', () => {
  const NOTOK = (result: string) => ({ status: '0', message: 'NOTOK', result })
  test('bad addresses, blocks, sorts, pages and hashes', async () => {
    for (const query of [
      'module=account&action=txlist&address=0x123',
      'module=account&action=txlist',
      'module=account&action=balance&address=nothex',
      'module=account&action=tokentx',
      `module=account&action=balancemulti&address=${TREASURY},0xzz`,
    ]) {
      expect(await api(query)).toEqual(NOTOK('Error! Invalid address format'))
    }
    expect(await api(`module=account&action=txlist&address=${TREASURY}&page=101&offset=100`)).toEqual(NOTOK('Result window is too large, PageNo x Offset size must be less than or equal to 10000'))
    expect(await api(`module=account&action=tokentx&address=${TREASURY}&page=2&offset=5001`)).toEqual(NOTOK('Result window is too large, PageNo x Offset size must be less than or equal to 10000'))
    expect(await api(`module=account&action=txlist&address=${TREASURY}&sort=up`)).toEqual(NOTOK('Error! Invalid sort order'))
    expect(await api(`module=account&action=txlist&address=${TREASURY}&startblock=-1`)).toEqual(NOTOK('Error! Invalid startblock'))
    expect(await api(`module=account&action=txlist&address=${TREASURY}&endblock=1e9`)).toEqual(NOTOK('Error! Invalid endblock'))
    expect(await api(`module=account&action=txlist&address=${TREASURY}&page=x&offset=1`)).toEqual(NOTOK('Error! Invalid page number'))
    expect(await api(`module=account&action=balancemulti&address=${Array.from({ length: 21 }, () => TREASURY).join(',')}`)).toEqual(NOTOK('Error! Maximum of 20 addresses'))
    expect(await api('module=transaction&action=getstatus&txhash=0x12')).toEqual(NOTOK('Error! Invalid transaction hash'))
    expect(await api('module=logs&action=getLogs&fromBlock=0&toBlock=latest')).toEqual(NOTOK('Error! Missing address or topic parameter'))
    expect(await api('module=logs&action=getLogs&fromBlock=0&toBlock=latest&topic0=0x12')).toEqual(NOTOK('Error! Invalid topic0 format'))
    expect(await api(`module=logs&action=getLogs&address=${BX}&page=11&offset=1000`)).toEqual(NOTOK('Result window is too large, PageNo x Offset size must be less than or equal to 10000'))
    expect(await api(`module=logs&action=getLogs&address=${BX}&topic0=${'0x' + '00'.repeat(32)}&topic1=${'0x' + '00'.repeat(32)}&topic0_1_opr=xor`)).toEqual(
      NOTOK('Error! Invalid topic0_1_opr, use and or or'),
    )
    expect(await api('module=block&action=getblockreward&blockno=abc')).toEqual(NOTOK('Error! Invalid block number'))
    expect(await api('module=block&action=getblocknobytime&timestamp=1&closest=near')).toEqual(NOTOK('Error! Invalid closest value, use before or after'))
    expect(await api('module=account&action=nothing')).toEqual(NOTOK('Error! Missing Or invalid Action name'))
    expect(await api(`module=account&action=balance&address=${TREASURY}&tag=earliest`)).toEqual(NOTOK('Error! Invalid tag, only latest is supported'))
  })

  test('an address with nothing answers Etherscan’s empty lists', async () => {
    const nobody = `0x${'12'.repeat(20)}`
    for (const action of ['txlist', 'txlistinternal', 'tokentx', 'tokennfttx', 'token1155tx', 'getminedblocks']) {
      expect(await api(`module=account&action=${action}&address=${nobody}`)).toEqual({ status: '0', message: 'No transactions found', result: [] })
    }
  })
})
