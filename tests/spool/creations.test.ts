import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import solc from 'solc'
import { concat, encodeAbiParameters, getAddress, keccak256, parseEventLogs, toHex, type Abi, type Address, type Hex, type TransactionReceipt } from 'viem'
import type { Artifact } from '../../src/devnet/artifacts.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { blob, hex } from '../../src/eth/bytes.ts'
import { openReader, openSpool } from '../../src/spool/sqlite/db.ts'
import { Follower } from '../../src/spool/follower.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import { creationOf, creationsOf, txId, txTrace, type Creation } from '../../src/spool/read.ts'
import { startNode, type RunningNode } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { followerOptions, rpcProxy } from './helpers.ts'

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Child {
    uint256 public value;
    constructor(uint256 v) { value = v; }
    function destroy() external { selfdestruct(payable(msg.sender)); }
}

contract Refuses {
    constructor() { revert("refused"); }
}

/** Makes a child in its own constructor: a creation frame below a transaction's own creation. */
contract Deployer {
    Child public child;
    constructor() { child = new Child(7); }
}

contract Factory {
    event Made(address child);

    function make(uint256 v) external returns (address child) {
        child = address(new Child(v));
        emit Made(child);
    }

    function makeAt(bytes32 salt, uint256 v) public returns (address child) {
        child = address(new Child{salt: salt}(v));
        emit Made(child);
    }

    /** Made and destroyed in one transaction, so the address can be made again. */
    function makeAndDestroy(bytes32 salt, uint256 v) external {
        Child(makeAt(salt, v)).destroy();
    }

    /** A creation frame that fails, in a transaction that succeeds. */
    function tryRefused() external returns (bool made) {
        try new Refuses() { made = true; } catch { made = false; }
    }

    /** A creation frame that succeeds, inside a call that reverts after it. */
    function undone(uint256 v) external {
        try this.makeThenRevert(v) {} catch {}
    }

    function makeThenRevert(uint256 v) external {
        new Child(v);
        revert("undone");
    }
}
`

function compile(): Record<'Child' | 'Deployer' | 'Factory', Artifact> {
  const input = {
    language: 'Solidity',
    sources: { 'Factory.sol': { content: SOURCE } },
    settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === 'error')
  if (errors.length) throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join('\n'))
  const artifact = (name: string): Artifact => ({ abi: output.contracts['Factory.sol'][name].abi, bytecode: `0x${output.contracts['Factory.sol'][name].evm.bytecode.object}` })
  return { Child: artifact('Child'), Deployer: artifact('Deployer'), Factory: artifact('Factory') }
}

let node: RunningNode
let artifacts: ReturnType<typeof compile>
let factory: Address
let reader: Database
let path: string
let health: SpoolHealth | undefined
const abort = new AbortController()
let running: Promise<void>
const { deployer, alice } = devAccounts

const caughtUp = async () => {
  const head = await node.head()
  await waitFor(() => health?.spoolHeadBlock === head, `the spool at block ${head}`)
}
const lower = (address: string) => address.toLowerCase() as Hex
const childArgs = (v: bigint) => encodeAbiParameters([{ type: 'uint256' }], [v])
const madeBy = (receipt: TransactionReceipt) => {
  const [event] = parseEventLogs({ abi: artifacts.Factory.abi as Abi, eventName: 'Made', logs: receipt.logs }) as unknown as Array<{ args: { child: Address } }>
  return event!.args.child
}
const txOf = (receipt: TransactionReceipt) => txId(Number(receipt.blockNumber), receipt.transactionIndex)
const rowsOfTx = (id: number) => reader.query<{ n: number }, [number]>('SELECT count(*) AS n FROM contract_creations WHERE tx_id = ?').get(id)!.n
const creation = async (address: string) => await creationOf(sqliteDb(reader), blob(address))
const shown = (made: Creation | null) =>
  made && { address: hex(made.address), creator: hex(made.creator), txHash: hex(made.txHash), blockNumber: made.blockNumber, txId: made.txId, frame: made.frame, input: hex(made.input) }

beforeAll(async () => {
  artifacts = compile()
  node = await startNode()
  factory = await node.deploy(deployer, artifacts.Factory)
  path = join(mkdtempSync(join(tmpdir(), 'stack-creations-')), 'spool.db')
  const db = openSpool(path)
  reader = openReader(path)
  running = new Follower(sqliteWriter(db), followerOptions(node.rpcUrl, { path, streams: [], onHealth: (next) => (health = next) })).run(abort.signal)
}, 60_000)
afterAll(async () => {
  abort.abort()
  await running
  await node?.stop()
})

describe('the creations the spool keeps', () => {
  test("a transaction's own creation: its sender, its hash and block, its input", async () => {
    await caughtUp()
    const receipt = await node.clients.publicClient.getTransactionReceipt({ hash: (await node.clients.publicClient.getBlock({ blockNumber: 1n })).transactions[0]! })
    expect(lower(receipt.contractAddress!)).toBe(lower(factory))
    const tx = await node.clients.publicClient.getTransaction({ hash: receipt.transactionHash })
    expect(shown(await creation(factory))).toEqual({
      address: lower(factory),
      creator: lower(deployer.address),
      txHash: receipt.transactionHash,
      blockNumber: 1,
      txId: txOf(receipt),
      frame: null,
      input: tx.input,
    })
    expect(tx.input).toBe(artifacts.Factory.bytecode)
  })

  test("a factory's creation: the factory as creator, the creating frame's path and input", async () => {
    const receipt = await node.write(alice, factory, artifacts.Factory.abi, 'make', [42n])
    const child = madeBy(receipt)
    await caughtUp()
    expect(shown(await creation(child))).toEqual({
      address: lower(child),
      creator: lower(factory),
      txHash: receipt.transactionHash,
      blockNumber: Number(receipt.blockNumber),
      txId: txOf(receipt),
      frame: '0',
      input: concat([artifacts.Child.bytecode, childArgs(42n)]),
    })
  })

  test("a creation inside a contract's constructor: the new contract is the creator, below the transaction's own", async () => {
    const deployed = await node.deploy(deployer, artifacts.Deployer)
    const child = await node.read<Address>(deployed, artifacts.Deployer.abi, 'child')
    await caughtUp()
    const own = (await creation(deployed))!
    expect(own.frame).toBeNull()
    expect(hex(own.creator)).toBe(lower(deployer.address))
    expect(hex(own.input)).toBe(artifacts.Deployer.bytecode)
    expect(shown(await creation(child))).toMatchObject({ creator: lower(deployed), txId: own.txId, frame: '0', input: concat([artifacts.Child.bytecode, childArgs(7n)]) })
  })

  test('a creation frame that failed, or that a reverted call undid, makes no row', async () => {
    // Gas enough for the inner frames: an estimate would settle for the catch branch.
    const gas = 1_000_000n
    const refused = await node.write(alice, factory, artifacts.Factory.abi, 'tryRefused', [], { gas })
    const undone = await node.write(alice, factory, artifacts.Factory.abi, 'undone', [3n], { gas })
    await caughtUp()
    // Both transactions succeeded and both trees hold a creation frame, yet no contract came of them.
    for (const receipt of [refused, undone]) {
      expect(receipt.status).toBe('success')
      expect(JSON.stringify(await txTrace(sqliteDb(reader), txOf(receipt)))).toContain('"CREATE')
      expect(rowsOfTx(txOf(receipt))).toBe(0)
    }
    // The reverted call's child would have been the factory's next CREATE address; there is no code there and no row.
    const frame = (await txTrace(sqliteDb(reader), txOf(undone)))!.calls[0]!.calls[0]!
    expect(frame.type).toBe('CREATE')
    expect(await node.clients.publicClient.getCode({ address: frame.to as Address })).toBeUndefined()
    expect(await creation(frame.to!)).toBeNull()
  })

  test('a CREATE2 address made again after its contract was destroyed answers the newest creation; rolling that back gives the first again', async () => {
    const salt = keccak256(toHex('again'))
    const first = await node.write(alice, factory, artifacts.Factory.abi, 'makeAndDestroy', [salt, 9n])
    const child = madeBy(first)
    expect(await node.clients.publicClient.getCode({ address: child })).toBeUndefined()
    const second = await node.write(alice, factory, artifacts.Factory.abi, 'makeAt', [salt, 9n])
    expect(madeBy(second)).toBe(child)
    await caughtUp()
    expect((await creation(child))!.txId).toBe(txOf(second))
    expect((await creation(child))!.frame).toBe('0')
    // makeAndDestroy's child is made by its call to itself (makeAt is public): the frame below it.
    expect(reader.query<{ frame: string }, [Uint8Array, number]>('SELECT frame FROM contract_creations WHERE address = ? AND tx_id = ?').get(blob(child), txOf(first))!.frame).toBe('0')

    await node.reorg(1)
    await waitFor(async () => {
      const stored = reader.query<{ hash: Uint8Array }, [number]>('SELECT hash FROM blocks WHERE number = ?').get(Number(second.blockNumber))
      const block = await node.clients.publicClient.getBlock({ blockNumber: second.blockNumber })
      return stored && hex(stored.hash) === block.hash
    }, 'the reorganised block')
    expect(rowsOfTx(txOf(second))).toBe(0)
    expect(shown(await creation(child))).toMatchObject({ txHash: first.transactionHash, txId: txOf(first), creator: lower(factory) })
  })

  test('a reorganisation removes the creations of the blocks it drops, factory-made and own alike', async () => {
    const snapshot = await node.test.snapshot()
    const made = madeBy(await node.write(alice, factory, artifacts.Factory.abi, 'make', [5n]))
    const deployed = await node.deploy(deployer, artifacts.Deployer)
    await caughtUp()
    expect(await creation(made)).not.toBeNull()
    expect(await creation(deployed)).not.toBeNull()
    const base = Number((await node.clients.publicClient.getBlock()).number) - 2
    await node.test.revert({ id: snapshot })
    await node.mine(3)
    await caughtUp()
    await waitFor(async () => (await creation(deployed)) === null, 'the rollback of the abandoned blocks')
    expect(await creation(made)).toBeNull()
    expect(reader.query<{ n: number }, [number]>('SELECT count(*) AS n FROM contract_creations WHERE block_number > ?').get(base)!.n).toBe(0)
  })

  test('creationsOf answers several addresses in the order asked, each once, without the unknown ones; more than five is refused', async () => {
    const made = madeBy(await node.write(alice, factory, artifacts.Factory.abi, 'make', [1n]))
    await caughtUp()
    const unknown = blob(`0x${'ab'.repeat(20)}`)
    const answers = await creationsOf(sqliteDb(reader), [blob(made), unknown, blob(factory), blob(made.toLowerCase())])
    expect(answers.map((answer) => getAddress(hex(answer.address)))).toEqual([getAddress(made), getAddress(factory)])
    expect(answers[0]!.input).not.toBeNull()
    expect(
      async () =>
        await creationsOf(
          sqliteDb(reader),
          Array.from({ length: 6 }, (_, index) => new Uint8Array(20).fill(index)),
        ),
    ).toThrow(RangeError)
  })
})

describe('a spool made before it kept creations', () => {
  test('the migration fills them from the transactions and call trees it holds, trees stored whole included', async () => {
    await caughtUp()
    const copy = join(mkdtempSync(join(tmpdir(), 'stack-creations-old-')), 'spool.db')
    const source = new Database(path, { readonly: true })
    source.run(`VACUUM INTO '${copy}'`)
    source.close()
    const live = (db: Database) =>
      db.query<Record<string, unknown>, []>('SELECT hex(address) AS a, tx_id, block_number, hex(creator) AS c, frame FROM contract_creations ORDER BY address, tx_id').all()
    const expected = live(reader)
    expect(expected.filter((row) => row.frame !== null).length).toBeGreaterThanOrEqual(4)

    const old = new Database(copy, { strict: true })
    old.run('DROP TABLE contract_creations')
    old.run("DELETE FROM migrations WHERE id = 'spool/004-contract-creations'")
    // One tree as an older spool stored it, whole rather than packed.
    const make = old.query<{ id: number }, []>("SELECT r.tx_id AS id FROM traces r JOIN txs t ON t.id = r.tx_id WHERE t.to_addr IS NOT NULL AND instr(r.trace, '\"CREATE') > 0 LIMIT 1").get()!
    old.run('UPDATE traces SET trace = ? WHERE tx_id = ?', [JSON.stringify(await txTrace(sqliteDb(reader), make.id)), make.id])
    old.close()

    const migrated = openSpool(copy)
    expect(live(migrated)).toEqual(expected)
    migrated.close()
  })
})

describe('a node without traces', () => {
  test("only the transactions' own creations are known", async () => {
    const proxy = rpcProxy(node.rpcUrl, undefined, ['trace_block', 'debug_traceBlockByNumber', 'debug_traceTransaction'])
    const bare = join(mkdtempSync(join(tmpdir(), 'stack-creations-bare-')), 'spool.db')
    const db = openSpool(bare)
    const bareReader = openReader(bare)
    let bareHealth: SpoolHealth | undefined
    const stop = new AbortController()
    const follower = new Follower(sqliteWriter(db), followerOptions(proxy.url, { path: bare, streams: [], onHealth: (next) => (bareHealth = next) })).run(stop.signal)
    try {
      const head = await node.head()
      await waitFor(() => bareHealth?.spoolHeadBlock === head, 'the spool without traces at the head')
      const frames = bareReader.query<{ n: number }, []>('SELECT count(*) AS n FROM contract_creations WHERE frame IS NOT NULL').get()!.n
      const own = bareReader.query<{ n: number }, []>('SELECT count(*) AS n FROM contract_creations').get()!.n
      expect(frames).toBe(0)
      expect(own).toBe(reader.query<{ n: number }, []>('SELECT count(*) AS n FROM contract_creations WHERE frame IS NULL').get()!.n)
      expect(await creationOf(sqliteDb(bareReader), blob(factory))).not.toBeNull()
    } finally {
      stop.abort()
      await follower
      proxy.stop()
      bareReader.close()
    }
  })
})
