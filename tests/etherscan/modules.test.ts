import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { EtherscanProvider, JsonRpcProvider } from 'ethers'
import { createPublicClient, decodeAbiParameters, encodeFunctionData, http, parseAbi, type Hex, type PublicClient } from 'viem'
import { createRpc, type Rpc } from '../../src/chain/rpc.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { startSeededDevStack, type SeededDevStack } from '../helpers/seededDevStack.ts'
import { waitFor } from '../helpers/wait.ts'

// The Etherscan-compatible API on the seeded dev chain, read by a client nobody here wrote
// (ethers' EtherscanProvider) and field by field against what the node itself says.

/** ethers' Etherscan client, pointed at the stack's listener: it knows only Etherscan's chains, so it is built for one of them. */
class StackEtherscan extends EtherscanProvider {
  readonly base: string
  constructor(base: string) {
    super('mainnet')
    this.base = base
  }
  override getUrl(module: string, params: Record<string, string>): string {
    const query = Object.entries(params)
      .filter(([, value]) => value != null)
      .map(([key, value]) => `&${key}=${value}`)
      .join('')
    return `${this.base}/api?chainid=1&module=${module}${query}`
  }
  override getPostUrl(): string {
    return `${this.base}/api`
  }
}

const TREASURY = devAccounts.treasury.address.toLowerCase()
const WETH = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
const BX = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

let dev: SeededDevStack
let etherscan: string
let nodeUrl: string
let node: PublicClient
let rpc: Rpc

type Answer<T = any> = { status: string; message: string; result: T }
const api = async <T = any>(query: string): Promise<Answer<T>> => (await (await fetch(`${etherscan}/api?${query}`)).json()) as Answer<T>
/** An ethers object as its toJSON writes it, the provider that fetched it left out. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value))
const dec = (value: bigint | number | null | undefined) => (value === null || value === undefined ? '' : BigInt(value).toString())

beforeAll(async () => {
  dev = await startSeededDevStack(100_000)
  etherscan = dev.stack.urls.etherscan!
  nodeUrl = dev.stack.lines.find((line) => line.msg === 'dev chain started')!.rpc as string
  node = createPublicClient({ transport: http(nodeUrl) }) as PublicClient
  rpc = createRpc(nodeUrl)
}, 90_000)
afterAll(async () => {
  await dev?.stack.stop()
})

describe('ethers EtherscanProvider against the listener', () => {
  test('answers getBalance, getBlockNumber, getTransaction, getTransactionReceipt and call as a JsonRpcProvider on the node does', async () => {
    const scan = new StackEtherscan(etherscan)
    const direct = new JsonRpcProvider(nodeUrl, undefined, { staticNetwork: true })
    try {
      expect(await scan.getBalance(TREASURY)).toBe(await direct.getBalance(TREASURY))
      // The dev chain's price keeper may mine a block in between: the node's head before and after bound it.
      const before = await direct.getBlockNumber()
      const viaProxy = await scan.getBlockNumber()
      expect(viaProxy).toBeGreaterThanOrEqual(before)
      expect(viaProxy).toBeLessThanOrEqual(await direct.getBlockNumber())
      const { result: [latest] } = await api(`module=account&action=txlist&address=${TREASURY}&page=1&offset=1&sort=desc`)
      const viaScan = await scan.getTransaction(latest.hash)
      const viaNode = await direct.getTransaction(latest.hash)
      expect(plain(viaScan)).toEqual(plain(viaNode))
      const receiptScan = await scan.getTransactionReceipt(latest.hash)
      const receiptNode = await direct.getTransactionReceipt(latest.hash)
      expect(plain(receiptScan)).toEqual(plain(receiptNode))
      expect(receiptScan!.logs.length).toBeGreaterThan(0)
      const call = { to: BX, data: encodeFunctionData({ abi: parseAbi(['function balanceOf(address) view returns (uint256)']), functionName: 'balanceOf', args: [TREASURY as Hex] }) }
      const answered = await scan.call(call)
      expect(answered).toBe(await direct.call(call))
      expect(BigInt(answered)).toBeGreaterThan(0n)
    } finally {
      direct.destroy()
      scan.destroy()
    }
  })
})

describe('lists field by field against the node', () => {
  test('txlist: every row of the treasury as the node gives its transaction, receipt and block', async () => {
    // Confirmations count from the spool's head, read just before and after the list.
    const spoolHead = async () => ((await (await fetch(`${etherscan}/health`)).json()) as { spoolHeadBlock: number }).spoolHeadBlock
    const headBefore = await spoolHead()
    const { status, result } = await api(`module=account&action=txlist&address=${TREASURY}&startblock=0&endblock=99999999&sort=asc`)
    const headAfter = await spoolHead()
    expect(status).toBe('1')
    expect(result.length).toBeGreaterThan(5)
    for (const row of result) {
      const tx = await node.getTransaction({ hash: row.hash })
      const receipt = await node.getTransactionReceipt({ hash: row.hash })
      const block = await node.getBlock({ blockNumber: tx.blockNumber! })
      expect(row).toEqual({
        blockNumber: dec(tx.blockNumber),
        timeStamp: dec(block.timestamp),
        hash: tx.hash,
        nonce: dec(tx.nonce),
        blockHash: tx.blockHash,
        transactionIndex: dec(tx.transactionIndex),
        from: tx.from.toLowerCase(),
        to: tx.to?.toLowerCase() ?? '',
        value: dec(tx.value),
        gas: dec(tx.gas),
        gasPrice: dec(receipt.effectiveGasPrice),
        isError: receipt.status === 'success' ? '0' : '1',
        txreceipt_status: receipt.status === 'success' ? '1' : '0',
        input: tx.input,
        contractAddress: receipt.contractAddress?.toLowerCase() ?? '',
        cumulativeGasUsed: dec(receipt.cumulativeGasUsed),
        gasUsed: dec(receipt.gasUsed),
        confirmations: expect.any(String),
        methodId: tx.input.length >= 10 ? tx.input.slice(0, 10) : '0x',
        functionName: expect.any(String),
      })
      expect(Number(row.confirmations)).toBeGreaterThanOrEqual(headBefore - Number(tx.blockNumber) + 1)
      expect(Number(row.confirmations)).toBeLessThanOrEqual(headAfter - Number(tx.blockNumber) + 1)
      expect(row.from === TREASURY || row.to === TREASURY || row.contractAddress === TREASURY).toBe(true)
    }
    // Function names by the one decoder: the contract's ABI, else the table of known signatures.
    const named = new Map(result.map((row: any) => [row.methodId, row.functionName]))
    expect(named.get('0xa9059cbb')).toBe('transfer(address to, uint256 value)')
    expect(named.get('0x095ea7b3')).toBe('approve(address spender, uint256 value)')
    expect(named.get('0x')).toBe('')
    // In chain order, and the page rule cuts the same list.
    const numbers = result.map((row: any) => BigInt(row.blockNumber) * 1_000_000n + BigInt(row.transactionIndex))
    expect(numbers).toEqual([...numbers].sort((a, b) => (a < b ? -1 : 1)))
    const { result: second } = await api(`module=account&action=txlist&address=${TREASURY}&page=2&offset=3&sort=asc`)
    expect(second.map((row: any) => row.hash)).toEqual(result.slice(3, 6).map((row: any) => row.hash))
    const { result: newest } = await api(`module=account&action=txlist&address=${TREASURY}&page=1&offset=2&sort=desc`)
    expect(newest.map((row: any) => row.hash)).toEqual(result.slice(-2).reverse().map((row: any) => row.hash))
  })

  test('txlistinternal: the ether-moving nested calls of the call tracer, by address and by transaction', async () => {
    const { status, result } = await api(`module=account&action=txlistinternal&address=${TREASURY}&sort=asc`)
    expect(status).toBe('1')
    expect(result.length).toBeGreaterThan(0)
    for (const row of result) {
      const tree = await rpc.call<any>('debug_traceTransaction', [row.hash, { tracer: 'callTracer' }])
      let frame = tree
      for (const step of row.traceId.split('_')) frame = frame.calls[Number(step)]
      const creation = frame.type.startsWith('CREATE')
      const tx = await node.getTransaction({ hash: row.hash })
      const block = await node.getBlock({ blockNumber: tx.blockNumber! })
      expect(row).toEqual({
        blockNumber: dec(tx.blockNumber),
        timeStamp: dec(block.timestamp),
        hash: row.hash,
        from: frame.from.toLowerCase(),
        to: creation ? '' : frame.to.toLowerCase(),
        value: dec(BigInt(frame.value ?? '0x0')),
        contractAddress: creation ? frame.to.toLowerCase() : '',
        input: '',
        type: frame.type.toLowerCase(),
        gas: dec(BigInt(frame.gas)),
        gasUsed: dec(BigInt(frame.gasUsed)),
        traceId: row.traceId,
        isError: frame.error ? '1' : '0',
        errCode: frame.error ?? '',
      })
      expect(frame.from.toLowerCase() === TREASURY || frame.to.toLowerCase() === TREASURY).toBe(true)
    }
    const byTx = await api(`module=account&action=txlistinternal&txhash=${result[0].hash}`)
    expect(byTx.result).toContainEqual(result[0])
  })

  test('tokentx and tokennfttx: the Transfer logs the node gives for the address, with their transactions', async () => {
    const topic = `0x${TREASURY.slice(2).padStart(64, '0')}` as Hex
    const logs = [
      ...(await node.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, topic] }] })),
      ...(await node.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, null, topic] }] })),
    ] as any[]
    logs.sort((a, b) => Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) || Number(BigInt(a.logIndex) - BigInt(b.logIndex)))
    const fungible = logs.filter((log) => log.topics.length === 3)
    const nft = logs.filter((log) => log.topics.length === 4)
    expect(fungible.length).toBeGreaterThan(0)
    expect(nft.length).toBeGreaterThan(0)
    for (const [action, expected] of [['tokentx', fungible], ['tokennfttx', nft]] as const) {
      const { status, result } = await api(`module=account&action=${action}&address=${TREASURY}&sort=asc`)
      expect(status).toBe('1')
      expect(result.map((row: any) => row.hash)).toEqual(expected.map((log) => log.transactionHash))
      for (const [index, row] of result.entries()) {
        const log = expected[index]
        const tx = await node.getTransaction({ hash: log.transactionHash })
        const receipt = await node.getTransactionReceipt({ hash: log.transactionHash })
        const block = await node.getBlock({ blockNumber: tx.blockNumber! })
        const token = log.address.toLowerCase()
        const erc20 = parseAbi(['function name() view returns (string)', 'function symbol() view returns (string)', 'function decimals() view returns (uint8)'])
        const read = (functionName: 'name' | 'symbol') => node.readContract({ address: token, abi: erc20, functionName })
        expect(row).toEqual({
          blockNumber: dec(tx.blockNumber),
          timeStamp: dec(block.timestamp),
          hash: tx.hash,
          nonce: dec(tx.nonce),
          blockHash: tx.blockHash,
          from: `0x${log.topics[1].slice(26)}`,
          contractAddress: token,
          to: `0x${log.topics[2].slice(26)}`,
          ...(action === 'tokentx'
            ? { value: dec(decodeAbiParameters([{ type: 'uint256' }], log.data)[0]) }
            : { tokenID: dec(BigInt(log.topics[3])) }),
          tokenName: await read('name'),
          tokenSymbol: await read('symbol'),
          tokenDecimal: action === 'tokentx' ? String(await node.readContract({ address: token, abi: erc20, functionName: 'decimals' })) : '0',
          transactionIndex: dec(tx.transactionIndex),
          gas: dec(tx.gas),
          gasPrice: dec(receipt.effectiveGasPrice),
          gasUsed: dec(receipt.gasUsed),
          cumulativeGasUsed: dec(receipt.cumulativeGasUsed),
          input: 'deprecated',
          confirmations: expect.any(String),
        })
      }
    }
    const byToken = await api(`module=account&action=tokentx&contractaddress=${BX}&address=${TREASURY}&page=1&offset=100`)
    expect(byToken.result.every((row: any) => row.contractAddress === BX)).toBe(true)
    expect(byToken.result.length).toBe(fungible.filter((log) => log.address.toLowerCase() === BX).slice(0, 100).length)
  })

  test('getLogs: the node’s eth_getLogs, in hex as Etherscan writes it, and the and/or topic rule', async () => {
    // Up to the spool's head, which may be a block behind the node's.
    const head = ((await (await fetch(`${etherscan}/health`)).json()) as { spoolHeadBlock: number }).spoolHeadBlock
    const fromNode = (await node.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: `0x${head.toString(16)}`, address: BX, topics: [TRANSFER] }] })) as any[]
    const { status, result } = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=${head}&address=${BX}&topic0=${TRANSFER}`)
    expect(status).toBe('1')
    expect(result.length).toBe(Math.min(fromNode.length, 1000))
    for (const [index, row] of result.entries()) {
      const log = fromNode[index]
      const receipt = await node.getTransactionReceipt({ hash: log.transactionHash })
      const block = await node.getBlock({ blockNumber: BigInt(log.blockNumber) })
      expect(row).toEqual({
        address: log.address.toLowerCase(),
        topics: log.topics,
        data: log.data,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        timeStamp: `0x${block.timestamp.toString(16)}`,
        gasPrice: `0x${receipt.effectiveGasPrice.toString(16)}`,
        gasUsed: `0x${receipt.gasUsed.toString(16)}`,
        logIndex: log.logIndex,
        transactionHash: log.transactionHash,
        transactionIndex: log.transactionIndex,
      })
    }
    // `or` between two topics; `and` binds before `or`, as in any boolean expression.
    const topic = `0x${TREASURY.slice(2).padStart(64, '0')}` as Hex
    const nodeLogs = async (filter: Record<string, unknown>) => (await node.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', ...filter }] as any })) as any[]
    const key = (log: any) => `${log.transactionHash}:${log.logIndex}`
    const either = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&address=${BX}&topic1=${topic}&topic1_2_opr=or&topic2=${topic}`)
    const nodeEither = [...(await nodeLogs({ address: BX, topics: [null, topic] })), ...(await nodeLogs({ address: BX, topics: [null, null, topic] }))]
    expect(nodeEither.length).toBeGreaterThan(0)
    expect(new Set(either.result.map(key))).toEqual(new Set(nodeEither.map(key)))
    const precedence = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&topic0=${TRANSFER}&topic0_1_opr=and&topic1=${topic}&topic1_2_opr=or&topic2=${topic}`)
    const nodePrecedence = [...(await nodeLogs({ topics: [TRANSFER, topic] })), ...(await nodeLogs({ topics: [null, null, topic] }))]
    expect(new Set(precedence.result.map(key))).toEqual(new Set(nodePrecedence.map(key)))
    // A later topic alone: no index serves it, and the dev chain's logs are well inside the budget read for it.
    const second = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&topic1=${topic}`)
    expect(new Set(second.result.map(key))).toEqual(new Set((await nodeLogs({ topics: [null, topic] })).map(key)))
    const both = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&topic0=${TRANSFER}&topic1=${topic}`)
    expect(new Set(both.result.map(key))).toEqual(new Set((await nodeLogs({ topics: [TRANSFER, topic] })).map(key)))
    const paged = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&address=${BX}&page=2&offset=2`)
    const all = await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&address=${BX}`)
    expect(paged.result).toEqual(all.result.slice(2, 4))
    expect(await api(`module=logs&action=getLogs&fromBlock=0&toBlock=latest&address=0x${'ab'.repeat(20)}`)).toEqual({ status: '0', message: 'No records found', result: [] })
  })

  test('txlist paged: the pages walked one by one are the whole list in either order; a new transaction heads the newest page at once', async () => {
    const hashes = async (query: string) => ((await api(`module=account&action=txlist&address=${TREASURY}&startblock=0&endblock=99999999&${query}`)).result as Array<{ hash: string }>).map((row) => row.hash)
    const walk = async (sort: string, offset: number) => {
      const walked: string[] = []
      for (let page = 1; ; page++) {
        const rows = await hashes(`page=${page}&offset=${offset}&sort=${sort}`)
        walked.push(...rows)
        if (rows.length < offset) return walked
      }
    }
    const whole = await hashes('sort=asc')
    expect(whole.length).toBeGreaterThan(5)
    // Walked forward, backward, and asked again out of order: the same list each time.
    expect(await walk('asc', 2)).toEqual(whole)
    expect(await walk('desc', 3)).toEqual([...whole].reverse())
    expect(await hashes('page=2&offset=2&sort=desc')).toEqual([...whole].reverse().slice(2, 4))
    expect(await hashes('page=1&offset=1&sort=asc')).toEqual(whole.slice(0, 1))

    const hash = await rpc.call<Hex>('eth_sendTransaction', [{ from: devAccounts.treasury.address, to: devAccounts.bob.address, value: '0x1' }])
    await node.waitForTransactionReceipt({ hash })
    await waitFor(async () => (await hashes('page=1&offset=2&sort=desc'))[0] === hash, 'the new transaction on the newest page', 20_000)
    expect(await hashes('page=1&offset=2&sort=desc')).toEqual([hash, whole.at(-1)!])
    expect(await walk('asc', 4)).toEqual([...whole, hash])
  })

  test('getstatus and gettxreceiptstatus: a reverted call with its reason, and a success', async () => {
    const withdraw = encodeFunctionData({ abi: parseAbi(['function withdraw(uint256)']), functionName: 'withdraw', args: [10n ** 30n] })
    const hash = await rpc.call<Hex>('eth_sendTransaction', [{ from: devAccounts.bob.address, to: WETH, data: withdraw, gas: '0x30000' }])
    const receipt = await node.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('reverted')
    await waitFor(async () => (await api(`module=transaction&action=gettxreceiptstatus&txhash=${hash}`)).result.status === '0', 'the spool holding the reverted transaction', 20_000)
    expect(await api(`module=transaction&action=getstatus&txhash=${hash}`)).toEqual({ status: '1', message: 'OK', result: { isError: '1', errDescription: 'WETH9: balance' } })
    const { result: [ok] } = await api(`module=account&action=txlist&address=${TREASURY}&page=1&offset=1`)
    expect((await node.getTransactionReceipt({ hash: ok.hash })).status).toBe('success')
    expect(await api(`module=transaction&action=getstatus&txhash=${ok.hash}`)).toEqual({ status: '1', message: 'OK', result: { isError: '0', errDescription: '' } })
    expect(await api(`module=transaction&action=gettxreceiptstatus&txhash=${ok.hash}`)).toEqual({ status: '1', message: 'OK', result: { status: '1' } })
  })
})
