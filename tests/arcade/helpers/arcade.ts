import { parseEther, type Account } from 'viem'
import { arcadeApp } from '../../../src/arcade/app.ts'
import { createArcade, type Arcade } from '../../../src/arcade/arcade.ts'
import { devAccounts } from '../../../src/devnet/accounts.ts'
import { ours } from '../../../src/devnet/artifacts.ts'
import type { Manifest } from '../../../src/devnet/deploy.ts'
import type { Listening } from '../../../src/http/serve.ts'
import { decodeEvents, type DevNode } from '../../helpers/devChain.ts'
import { serveOnFreePort, testContext } from '../../helpers/service.ts'
import { waitFor } from '../../helpers/wait.ts'

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
  if (waitForNode) await waitFor(() => core.nodeConnected(), 'the node socket to open', 10_000)
  return {
    arcade: core,
    service,
    lines: context.lines,
    ws: (room) => `${service.url.replace(/^http/, 'ws')}/ws/${room}`,
    stop: () => service.stop(),
  }
}

/** A dev chain with the arcade's contracts: where a play is sent. */
export type PlayChain = Pick<DevNode, 'write'> & { manifest: Manifest }

/** A real play: `player` deposits into the bank and bets on the coin; returns the bet id and its transaction. */
export async function placeFlip(chain: PlayChain, player: Account = devAccounts.alice, heads = true, stakeEth = '0.5') {
  const { ArcadeBank, CoinFlip } = chain.manifest.contracts
  await chain.write(player, ArcadeBank, ours.ArcadeBank.abi, 'deposit', [], { value: parseEther(stakeEth) })
  const receipt = await chain.write(player, CoinFlip, ours.CoinFlip.abi, 'place', [heads, parseEther(stakeEth)])
  const [placed] = decodeEvents<{ betId: bigint }>(ours.CoinFlip.abi, receipt.logs, 'FlipPlaced')
  return { betId: placed!.args.betId, txHash: receipt.transactionHash, block: Number(receipt.blockNumber) }
}

/** Settles a bet from the next block on (anyone may). */
export async function settleFlip(chain: PlayChain, betId: bigint, by: Account = devAccounts.carol) {
  const receipt = await chain.write(by, chain.manifest.contracts.CoinFlip, ours.CoinFlip.abi, 'settle', [betId])
  return { txHash: receipt.transactionHash, block: Number(receipt.blockNumber) }
}
