import { parseEther, parseEventLogs, type Account, type Address, type Hash } from 'viem'
import { arcadeApp } from '../../../src/arcade/app.ts'
import { createArcade, type Arcade } from '../../../src/arcade/arcade.ts'
import type { AnvilOptions } from '../../../src/chain/anvil.ts'
import { devAccounts } from '../../../src/devnet/accounts.ts'
import { ours } from '../../../src/devnet/artifacts.ts'
import { confirm, deployContracts, devClients, type DevClients, type Manifest } from '../../../src/devnet/deploy.ts'
import type { Listening } from '../../../src/http/serve.ts'
import { spawnAnvil, type Anvil } from '../../helpers/anvil.ts'
import { serveOnFreePort, testContext } from '../../helpers/service.ts'

export type ArcadeChain = { anvil: Anvil; clients: DevClients; manifest: Manifest }

/** A real anvil with the dev chain's contracts deployed at their fixed addresses (the arcade's defaults). */
export async function arcadeChain(options: AnvilOptions = {}): Promise<ArcadeChain> {
  const anvil = await spawnAnvil(options)
  const clients = devClients(anvil.rpcUrl)
  const manifest = await deployContracts(clients, { faucetDripEth: '1', faucetDripBx: '100' })
  return { anvil, clients, manifest }
}

export type RunningArcade = {
  arcade: Arcade
  service: Listening
  lines: Record<string, unknown>[]
  /** The socket URL of a room. */
  ws: (room: string) => string
  stop: () => Promise<void>
}

/**
 * The arcade service on a free port against a node. `arcade` is extra text for the [arcade]
 * table. Resolves once the node socket is up.
 */
export async function startArcade(node: { rpcUrl: string; wsUrl: string }, arcade = '', { waitForNode = true } = {}): Promise<RunningArcade> {
  const context = testContext(`[chain]\nrpc = "${node.rpcUrl}"\nws = "${node.wsUrl}"\n[arcade]\nport = 0\nreconnectMinMs = 50\nreconnectMaxMs = 400\n${arcade}\n`)
  const core = createArcade(context)
  const service = serveOnFreePort(arcadeApp(core, context), 'arcade')
  if (waitForNode) await waitFor(() => core.nodeConnected(), 10_000, 'the node socket to open')
  return {
    arcade: core,
    service,
    lines: context.lines,
    ws: (room) => `${service.url.replace(/^http/, 'ws')}/ws/${room}`,
    stop: () => service.stop(),
  }
}

/** Polls until `check` is true. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'a condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await Bun.sleep(20)
  }
}

/** Mines one empty block. */
export const mine = (chain: ArcadeChain) => chain.clients.publicClient.request({ method: 'evm_mine', params: [] } as never)

const write = async (chain: ArcadeChain, account: Account, address: Address, abi: unknown, functionName: string, args: unknown[] = [], value?: bigint) => {
  const hash: Hash = await chain.clients.walletFor(account).writeContract({ address, abi, functionName, args, value } as never)
  return confirm(chain.clients.publicClient, hash, functionName)
}

/** A real play: `player` deposits into the bank and bets on the coin; returns the bet id and its transaction. */
export async function placeFlip(chain: ArcadeChain, player: Account = devAccounts.alice, heads = true, stakeEth = '0.5') {
  const { ArcadeBank, CoinFlip } = chain.manifest.contracts
  await write(chain, player, ArcadeBank, ours.ArcadeBank.abi, 'deposit', [], parseEther(stakeEth))
  const receipt = await write(chain, player, CoinFlip, ours.CoinFlip.abi, 'place', [heads, parseEther(stakeEth)])
  const [placed] = parseEventLogs({ abi: ours.CoinFlip.abi, logs: receipt.logs, eventName: 'FlipPlaced' }) as unknown as Array<{ args: { betId: bigint } }>
  return { betId: placed!.args.betId, txHash: receipt.transactionHash, block: Number(receipt.blockNumber) }
}

/** Settles a bet from the next block on (anyone may). */
export async function settleFlip(chain: ArcadeChain, betId: bigint, by: Account = devAccounts.carol) {
  const receipt = await write(chain, by, chain.manifest.contracts.CoinFlip, ours.CoinFlip.abi, 'settle', [betId])
  return { txHash: receipt.transactionHash, block: Number(receipt.blockNumber) }
}
