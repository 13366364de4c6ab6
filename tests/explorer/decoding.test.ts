import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import solc from 'solc'
import { encodeFunctionData, getAddress, parseAbi, type Abi, type Address, type Hex } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { openVerificationWriter } from '../../src/spool/verified.ts'
import { spoolWiring } from '../../src/streams.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { rpcProxy } from '../spool/helpers.ts'
import { seededExplorer, send, statsAt, waitFor, type SeededExplorer } from './helpers.ts'

// Decoding by a contract's own ABI on the seeded dev chain: a contract compiled here by solc-js,
// deployed, and verified by writing the record the verifier writes (its real ABI from this
// compile); its calls, events, return values and every kind of revert in /tx/{hash}, its methods
// named in the lists; the faucet's own custom error named with no verification at all; and the
// revert reason of a chain whose node gives no traces, read by replaying the call.

type Arg = { name: string; type: string; value: unknown }
type Reason = { kind: string; message: string; name?: string; args?: Arg[]; code?: string; selector: string | null; data: string; source?: string }
type Frame = { type: string; to: string | null; method: string | null; error: string | null; decoded: { name: string; args: Arg[] } | null; decodedOutput: Arg[] | null; revertReason: Reason | null; calls: Frame[] }
type Tx = {
  status: string
  method: string | null
  decoded: { name: string; signature: string; args: Arg[] } | null
  logs: Array<{ address: string; event: { name: string; signature: string; args: Record<string, unknown>; types: Record<string, string> } | null }>
  traces: Frame[] | null
  revertReason: Reason | null
}

const SOURCE_PATH = 'Ledger.sol'
const source = readFileSync(join(import.meta.dir, '../fixtures/decode/Ledger.sol'), 'utf8')
const input = {
  language: 'Solidity',
  sources: { [SOURCE_PATH]: { content: source } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] } },
  },
}
type Compiled = { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { immutableReferences: Record<string, Array<{ start: number; length: number }>> } } }
let compiled: Record<'Ledger' | 'Adder', Compiled>

const { alice, bob } = devAccounts
let seeded: SeededExplorer
let ledger: Address
let adder: Address
let unverified: Address
const hashes: Record<string, Hex | undefined> = {}

const call = (functionName: string, args: readonly unknown[] = [], to: Address = ledger) => ({
  from: alice.address,
  to,
  data: encodeFunctionData({ abi: compiled.Ledger.abi, functionName, args }),
  // A gas limit of its own: a call that reverts is sent and mined rather than refused by the estimate.
  gas: 500_000n,
})

/** Records the verification the verifier writes for `name` at `address`, created in `blockNumber`. */
async function verify(spool: Spool, name: 'Ledger' | 'Adder', address: Address, blockNumber: number) {
  const writer = openVerificationWriter(spool.path)
  try {
    const recorded = await writer.record({
      address,
      blockNumber,
      match: 'exact_match',
      creationMatch: 'exact_match',
      runtimeMatch: 'exact_match',
      origin: 'etherscan',
      name,
      compilerVersion: `v${solc.version().replace(/\.Emscripten.*$/, '')}`,
      codeHash: null,
      details: {
        abi: compiled[name].abi,
        sources: { [SOURCE_PATH]: source },
        contractIdentifier: `${SOURCE_PATH}:${name}`,
        optimizer: { enabled: true, runs: 200 },
        evmVersion: 'cancun',
        libraries: {},
        constructorArguments: '',
        licence: 'MIT',
        stdJsonInput: input,
        immutableReferences: compiled[name].evm.deployedBytecode.immutableReferences,
      },
    })
    expect(recorded).not.toBeNull()
  } finally {
    writer.close()
  }
}

beforeAll(async () => {
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as { errors?: Array<{ severity: string; formattedMessage: string }>; contracts: Record<string, Record<string, Compiled>> }
  const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((entry) => entry.formattedMessage).join('\n'))
  compiled = output.contracts[SOURCE_PATH] as typeof compiled
  seeded = await seededExplorer()
  const artifact = { abi: compiled.Ledger.abi, bytecode: `0x${compiled.Ledger.evm.bytecode.object}` as Hex }
  ledger = await seeded.dev.deploy(alice, artifact)
  const created = await seeded.dev.head()
  unverified = await seeded.dev.deploy(alice, artifact)
  adder = await seeded.dev.read<Address>(ledger, compiled.Ledger.abi, 'adder')
  await statsAt(seeded, await seeded.head())
  await verify(seeded.spool, 'Ledger', ledger, created)
  await verify(seeded.spool, 'Adder', adder, created)

  const sent = (await send(seeded.anvil.rpcUrl, [
    call('record', [5n, 'first']),
    call('record', [5000n, 'too much']),
    call('requireSmall', [50n]),
    call('bump', [10n]),
    call('askAdder', [3n]),
    call('record', [7n, 'elsewhere'], unverified),
    { from: alice.address, to: seeded.manifest.contracts.Faucet, data: encodeFunctionData({ abi: parseAbi(['function dripTo(address to)']), functionName: 'dripTo', args: [bob.address] }), gas: 200_000n },
  ])) as Hex[]
  ;[hashes.record, hashes.tooMuch, hashes.require, hashes.panic, hashes.nested, hashes.unverified, hashes.faucet] = sent
  await statsAt(seeded, await seeded.head())
}, 120_000)
afterAll(() => seeded?.stop())

const tx = (hash: Hex) => seeded.json<Tx>(`/tx/${hash}`)

describe('/tx/{hash} by the verified ABI', () => {
  test('the call, its event and its return value; the nested frame with its input and output', async () => {
    const body = await tx(hashes.record!)
    expect(body.status).toBe('success')
    expect(body.revertReason).toBeNull()
    expect(body.method).toBe('record')
    expect(body.decoded).toEqual({
      name: 'record',
      signature: 'record(uint256,string)',
      selector: encodeFunctionData({ abi: compiled.Ledger.abi, functionName: 'record', args: [0n, ''] }).slice(0, 10),
      args: [
        { name: 'amount', type: 'uint256', value: '5' },
        { name: 'note', type: 'string', value: 'first' },
      ],
    } as never)
    expect(body.logs).toHaveLength(1)
    expect(body.logs[0]!.event).toEqual({ name: 'Recorded', signature: 'Recorded(address,uint256,string)', args: { who: alice.address, amount: '5', note: 'first' }, types: { who: 'address', amount: 'uint256', note: 'string' } })

    const [root] = body.traces!
    expect(root).toMatchObject({ method: 'record', error: null, revertReason: null, decoded: { name: 'record' }, decodedOutput: [{ name: 'newTotal', type: 'uint256', value: '5' }] })
    const inner = root!.calls[0]!
    expect(inner).toMatchObject({ type: 'STATICCALL', to: getAddress(adder), method: 'add', error: null, revertReason: null })
    expect(inner.decoded!.args).toEqual([
      { name: 'a', type: 'uint256', value: '0' },
      { name: 'b', type: 'uint256', value: '5' },
    ])
    expect(inner.decodedOutput).toEqual([
      { name: 'sum', type: 'uint256', value: '5' },
      { name: 'big', type: 'bool', value: false },
    ])
  })

  test('a custom error of the ABI, by name with its arguments', async () => {
    const body = await tx(hashes.tooMuch!)
    expect(body.status).toBe('reverted')
    expect(body.revertReason).toMatchObject({
      kind: 'custom',
      name: 'TooMuch',
      message: `TooMuch(${alice.address}, 5000, 1000)`,
      source: 'trace',
      args: [
        { name: 'who', type: 'address', value: alice.address },
        { name: 'amount', type: 'uint256', value: '5000' },
        { name: 'limit', type: 'uint256', value: '1000' },
      ],
    })
    expect(body.revertReason!.data).toStartWith(body.revertReason!.selector!)
    expect(body.traces![0]!.revertReason).toMatchObject({ kind: 'custom', name: 'TooMuch' })
    expect(body.traces![0]!.decodedOutput).toBeNull()
  })

  test("a require message is Error(string)'s text; an overflow is Panic 0x11 with its meaning", async () => {
    expect((await tx(hashes.require!)).revertReason).toMatchObject({ kind: 'error', message: 'amount must be under 10', selector: '0x08c379a0', source: 'trace' })
    expect((await tx(hashes.panic!)).revertReason).toMatchObject({ kind: 'panic', code: '0x11', message: 'arithmetic overflow or underflow', selector: '0x4e487b71' })
  })

  test('an error raised one call down is named by the ABI of the contract that raised it, in the frame and the transaction', async () => {
    const body = await tx(hashes.nested!)
    const refused = { kind: 'custom', name: 'Refused', message: 'Refused(3, "wanted none")', args: [{ name: 'wanted', value: '3' }, { name: 'why', value: 'wanted none' }] }
    expect(body.revertReason).toMatchObject(refused)
    const inner = body.traces![0]!.calls[0]!
    expect(inner).toMatchObject({ method: 'fail', decoded: { name: 'fail', args: [{ name: 'wanted', value: '3' }] }, decodedOutput: null, revertReason: refused })
    expect(inner.error).not.toBeNull()
  })

  test('the same code at an address nobody verified is not decoded by guesswork', async () => {
    const body = await tx(hashes.unverified!)
    expect(body.decoded).toBeNull()
    expect(body.method).toMatch(/^0x[0-9a-f]{8}$/)
    expect(body.logs[0]!.event).toBeNull()
    expect(body.traces![0]!.decodedOutput).toBeNull()
  })
})

test("the faucet's NotOperator, the stack's own contract, is named with no verification", async () => {
  const body = await tx(hashes.faucet!)
  expect(body.status).toBe('reverted')
  expect(body.decoded).toMatchObject({ name: 'dripTo', args: [{ name: 'to', value: bob.address }] })
  expect(body.revertReason).toMatchObject({ kind: 'custom', name: 'NotOperator', message: `NotOperator(${alice.address})`, args: [{ name: 'caller', type: 'address', value: alice.address }] })
})

test("/txs and an address's transactions name the verified contract's methods", async () => {
  const rows = await seeded.json<Array<{ hash: string; method: string | null }>>('/txs?limit=20')
  const method = (hash: Hex) => rows.find((row) => row.hash === hash)?.method
  expect(method(hashes.record!)).toBe('record')
  expect(method(hashes.require!)).toBe('requireSmall')
  expect(method(hashes.panic!)).toBe('bump')
  expect(method(hashes.nested!)).toBe('askAdder')
  expect(method(hashes.faucet!)).toBe('dripTo')
  expect(method(hashes.unverified!)).toMatch(/^0x[0-9a-f]{8}$/)
  const address = await seeded.json<{ transactions: Array<{ hash: string; method: string | null }> }>(`/address/${ledger}`)
  expect(address.transactions.find((row) => row.hash === hashes.record)?.method).toBe('record')
})

describe('a node that gives no traces', () => {
  let spool: Spool
  let explorer: Listening
  let proxy: ReturnType<typeof rpcProxy>

  beforeAll(async () => {
    proxy = rpcProxy(seeded.anvil.rpcUrl, undefined, ['trace_block', 'trace_transaction', 'debug_traceBlockByNumber', 'debug_traceTransaction'])
    const context = testContext(`[chain]\nrpc = "${seeded.anvil.rpcUrl}"\nws = "ws://127.0.0.1:9"\n[spool]\npollMs = 100\n[explorer]\nrateLimitPerMinute = 1000000000\n`)
    const spoolContext = testContext(`[chain]\nrpc = "${proxy.url}"\nws = "ws://127.0.0.1:9"\n[data]\ndir = "${context.config.dataDir}"\n[spool]\npollMs = 100\n`)
    spool = await startSpool(spoolContext.config, spoolWiring(spoolContext.config), spoolContext.log)
    explorer = serveOnFreePort(createExplorerApp(context, spool), 'explorer')
    const top = await seeded.head()
    await waitFor(() => spool.health().streams.explorer?.cursorBlock === top, 'the untraced spool at the head', 60_000)
  }, 90_000)
  afterAll(async () => {
    await explorer?.stop()
    await spool?.stop()
    proxy?.stop()
  })

  test('a failed transaction without a trace is replayed on the state before its block', async () => {
    const get = async (hash: Hex) => (await (await fetch(`${explorer.url}/api/tx/${hash}`)).json()) as Tx
    const required = await get(hashes.require!)
    expect(required.traces).toBeNull()
    expect(required.revertReason).toMatchObject({ kind: 'error', message: 'amount must be under 10', source: 'replay' })
    expect((await get(hashes.faucet!)).revertReason).toMatchObject({ kind: 'custom', name: 'NotOperator', source: 'replay' })
    expect((await get(hashes.record!)).revertReason).toBeNull()
  })
})
