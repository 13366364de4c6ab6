import { parseEventLogs, type Abi, type Account, type Address, type Hash, type Log, type TransactionReceipt } from 'viem'
import type { AnvilOptions } from '../../src/chain/anvil.ts'
import { createRpc, type Rpc } from '../../src/chain/rpc.ts'
import { parseConfig } from '../../src/config/load.ts'
import type { Artifact } from '../../src/devnet/artifacts.ts'
import { confirm, deployContracts, devClients, type DeployOptions, type DevClients, type Manifest } from '../../src/devnet/deploy.ts'
import { seedActivity, type SeedOptions, type SeedReport } from '../../src/devnet/seed.ts'
import { spawnAnvil, type Anvil } from './anvil.ts'

/**
 * The dev chain for tests and benches: anvil on a free port, the contract set deployed and the
 * demo activity seeded by the same code as `stack dev` (src/devnet), and typed ways to act on it.
 */

/** A transaction from one of anvil's unlocked dev accounts, sent as it is (eth_sendTransaction). */
export type UnlockedSend = { from: string; to: string; data?: string; value?: bigint; gas?: bigint; nonce?: number }

/** What a test does to a dev node, whoever started it. */
export type DevNode = {
  rpcUrl: string
  clients: DevClients
  /** anvil's own methods through viem's test client: mine, snapshot, revert, increaseTime, setAutomine, dropTransaction, setBalance... */
  test: DevClients['testClient']
  /** Bare JSON-RPC, for bulk sends from unlocked accounts and the methods viem does not type (anvil_reorg). */
  rpc: Rpc
  /** The node's latest block number. */
  head: () => Promise<number>
  /** Mines `blocks` blocks (taking whatever is pending); returns the new head. */
  mine: (blocks?: number) => Promise<number>
  /** Moves the chain's clock on by `seconds` and mines a block at the new time. */
  advanceTime: (seconds: number) => Promise<void>
  /** Replaces the last `depth` blocks with empty ones (anvil_reorg). */
  reorg: (depth: number) => Promise<void>
  /** Sends a contract call signed by `from` and waits for its receipt; throws when it reverts. */
  write: (from: Account, address: Address, abi: Abi, functionName: string, args?: readonly unknown[], options?: { value?: bigint; gas?: bigint }) => Promise<TransactionReceipt>
  read: <T>(address: Address, abi: Abi, functionName: string, args?: readonly unknown[]) => Promise<T>
  /** Deploys a contract from `from`; returns its address. */
  deploy: (from: Account, artifact: Artifact, args?: readonly unknown[]) => Promise<Address>
  /** Sends from unlocked accounts one after the other (anvil mines each as it comes) and waits for the last. */
  send: (txs: UnlockedSend[]) => Promise<Hash[]>
  /** Puts all the transactions in one block: automine off, send, mine once, automine on. Returns that block. */
  sendInOneBlock: (txs: UnlockedSend[]) => Promise<number>
}

/** A node this process started: stopping it ends the anvil. */
export type RunningNode = DevNode & { anvil: Anvil; wsUrl: string; port: number; stop: () => Promise<void> }

/** A started node with the dev contract set on it. */
export type DevChain = RunningNode & { manifest: Manifest; seed: SeedReport | null }

export type DevChainOptions = AnvilOptions & {
  /** Seed the demo activity after deploying (`dev.seed` of `stack dev`); true unless false. */
  seed?: boolean
  /** Drip amounts of the faucet contract; `stack dev`'s defaults unless given. */
  drips?: Partial<DeployOptions>
  /** What the seeding gives the faucet; `stack dev`'s defaults unless given. */
  funds?: Partial<SeedOptions>
}

const hex = (value: number | bigint) => `0x${value.toString(16)}`

/** The typed actions over any dev node, for instance the one `stack dev` started. */
export function devNode(rpcUrl: string): DevNode {
  const clients = devClients(rpcUrl)
  const { publicClient, walletFor, testClient } = clients
  const rpc = createRpc(rpcUrl)
  const head = async () => Number(await publicClient.getBlockNumber({ cacheTime: 0 }))
  const toCall = (tx: UnlockedSend) => ({
    from: tx.from,
    to: tx.to,
    data: tx.data ?? '0x',
    value: hex(tx.value ?? 0n),
    ...(tx.gas === undefined ? {} : { gas: hex(tx.gas) }),
    ...(tx.nonce === undefined ? {} : { nonce: hex(tx.nonce) }),
  })
  const sendAll = async (txs: UnlockedSend[]) => {
    const hashes: Hash[] = []
    for (const tx of txs) hashes.push(await rpc.call<Hash>('eth_sendTransaction', [toCall(tx)]))
    return hashes
  }
  return {
    rpcUrl,
    clients,
    test: testClient,
    rpc,
    head,
    mine: async (blocks = 1) => {
      await testClient.mine({ blocks })
      return head()
    },
    advanceTime: async (seconds) => {
      await testClient.increaseTime({ seconds })
      await testClient.mine({ blocks: 1 })
    },
    reorg: async (depth) => {
      await rpc.call('anvil_reorg', [depth, []])
    },
    write: async (from, address, abi, functionName, args = [], { value, gas } = {}) => {
      const hash = await walletFor(from).writeContract({ address, abi, functionName, args, value, gas, account: from, chain: clients.chain })
      return confirm(publicClient, hash, `${functionName} on ${address}`)
    },
    read: <T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
      publicClient.readContract({ address, abi, functionName, args }) as Promise<T>,
    deploy: async (from, { abi, bytecode }, args = []) => {
      const hash = await walletFor(from).deployContract({ abi, bytecode, args, account: from, chain: clients.chain })
      return (await confirm(publicClient, hash, 'deploying a contract')).contractAddress!
    },
    send: async (txs) => {
      const hashes = await sendAll(txs)
      // anvil answers a send before it has mined it: wait for the last one, so the head is final.
      while (hashes.length > 0 && !(await rpc.call('eth_getTransactionReceipt', [hashes.at(-1)]))) await Bun.sleep(5)
      return hashes
    },
    sendInOneBlock: async (txs) => {
      await testClient.setAutomine(false)
      try {
        await sendAll(txs)
        await testClient.mine({ blocks: 1 })
      } finally {
        await testClient.setAutomine(true)
      }
      return head()
    },
  }
}

/** anvil (chain 78270, mining each transaction as it arrives unless `blockTime` says otherwise) on a free port, with nothing deployed. */
export async function startNode(options: AnvilOptions = {}): Promise<RunningNode> {
  const anvil = await spawnAnvil(options)
  return { ...devNode(anvil.rpcUrl), anvil, wsUrl: anvil.wsUrl, port: anvil.port, stop: anvil.stop }
}

/**
 * A fresh dev chain: anvil on a free port, the contract set deployed at its fixed addresses and,
 * unless `seed` is false, the demo activity seeded, with `stack dev`'s amounts unless told
 * otherwise. A failure on the way stops the node again.
 */
export async function startDevChain(options: DevChainOptions = {}): Promise<DevChain> {
  const { seed = true, drips, funds, ...anvilOptions } = options
  const { dev } = parseConfig('', null)
  const node = await startNode(anvilOptions)
  try {
    const manifest = await deployContracts(node.clients, { faucetDripEth: dev.faucetDripEth, faucetDripBx: dev.faucetDripBx, ...drips })
    const report = seed ? await seedActivity(node.clients, manifest, { faucetFundEth: dev.faucetFundEth, faucetFundBx: dev.faucetFundBx, ...funds }) : null
    return { ...node, manifest, seed: report }
  } catch (error) {
    await node.stop()
    throw error
  }
}

/** The events named `eventName` among `logs`, decoded with `abi`; `Args` is what the test reads of them. */
export function decodeEvents<Args = Record<string, unknown>>(abi: Abi, logs: Log[], eventName?: string): Array<Log & { eventName: string; args: Args }> {
  return parseEventLogs({ abi, logs, eventName }) as unknown as Array<Log & { eventName: string; args: Args }>
}
