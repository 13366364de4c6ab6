import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Address } from 'viem'
import { startAnvil, type Anvil } from '../chain/anvil.ts'
import { manifestPath } from '../chain/manifest.ts'
import type { Config } from '../config/load.ts'
import { writeFileAtomic } from '../files/writeFileAtomic.ts'
import type { Logger } from '../log.ts'
import { devAccounts } from './accounts.ts'
import { deployContracts, devClients, DevnetError, predictedAddresses, type DevClients, type Manifest } from './deploy.ts'
import { seedActivity, type SeedReport } from './seed.ts'
import { firstLine } from '../errors.ts'

// The manifest's file name is the chain layer's (the faucet reads the file too); still offered
// here for the bench that writes a manifest of its own.
export { MANIFEST_FILE } from '../chain/manifest.ts'

export type Devnet = {
  anvil: Anvil
  /** Null on a chain where the contract set is not at its addresses and could not be deployed. */
  manifest: Manifest | null
  manifestPath: string
  seed: SeedReport | null
  /** Whether this start deployed the contract set (a saved or forked chain that has it keeps it: deploy once). */
  deployed: boolean
  /** The chain was loaded from `dev.state`, saved by an earlier stop. */
  resumed: boolean
  /** On a fork, the block it started from (the last block of the other chain's history); else null. */
  forkedAt: number | null
  /** The reset point: an anvil snapshot of the chain as it stands once deployed and seeded (or loaded), and its block. */
  snapshot: { id: string; block: number }
  /** Stops the node (which saves the chain to `dev.state`, when set). */
  stop: () => Promise<void>
}

/**
 * The dev chain: starts anvil mining on demand (so deploying and seeding take well under a
 * second) from nothing, from the state `dev.state` saved, or as a fork of `dev.fork.url`; deploys
 * the contract set and seeds activity where the deployer has never sent a transaction (deploy
 * once: a saved or forked chain that already has the set keeps it, and its history); takes the
 * reset point's snapshot; switches to interval mining and writes the deployment manifest. A
 * failure at any step stops the node again.
 */
export async function startDevnet(config: Config, log: Logger): Promise<Devnet> {
  const { dev } = config
  const state = config.devState
  const resumed = state !== null && existsSync(state)
  // anvil writes the file at stop, but makes no folder for it.
  if (state !== null) mkdirSync(dirname(state), { recursive: true })
  const anvil = await startAnvil({ host: dev.host, port: dev.port, chainId: config.chain.chainId, args: anvilArgs(config) })
  log.info({ rpc: anvil.rpcUrl, ws: anvil.wsUrl, chainId: config.chain.chainId, state, resumed, fork: dev.fork.url || null }, 'dev chain started')
  try {
    const started = performance.now()
    const clients = devClients(anvil.rpcUrl, config.chain.chainId)
    const forkedAt = dev.fork.url === '' ? null : Number(await clients.publicClient.getBlockNumber({ cacheTime: 0 }))
    const path = manifestPath(config.dataDir)
    const deployer = await clients.publicClient.getTransactionCount({ address: devAccounts.deployer.address })
    let manifest: Manifest | null
    let seed: SeedReport | null = null
    if (deployer === 0) {
      manifest = await deployContracts(clients, { faucetDripEth: dev.faucetDripEth, faucetDripBx: dev.faucetDripBx })
      log.info({ contracts: Object.keys(manifest.contracts).length, block: manifest.deploymentBlock }, 'contracts deployed')
      seed = dev.seed ? await seedActivity(clients, manifest, { faucetFundEth: dev.faucetFundEth, faucetFundBx: dev.faucetFundBx }) : null
      if (seed) log.info({ transactions: seed.transactions, ms: Math.round(performance.now() - started) }, 'demo activity seeded')
    } else {
      manifest = await deployedEarlier(clients, config.chain.chainId, path)
      if (manifest) log.info({ deploymentBlock: manifest.deploymentBlock }, 'the contract set is already on this chain (deploy once): kept as it is, nothing deployed or seeded')
      else log.warn({ deployer: devAccounts.deployer.address, transactions: deployer }, 'the deployer has sent transactions on this chain but the contract set is not at its addresses: nothing deployed, and the services find no contracts')
    }
    // A fork's head is a block of its own before anything reads it: anvil serves the other
    // chain's blocks, logs included, from that chain (see catchUpOnFork in src/cli/commands.ts).
    if (forkedAt !== null && Number(await clients.publicClient.getBlockNumber({ cacheTime: 0 })) === forkedAt) await clients.testClient.mine({ blocks: 1 })
    // The reset point: the chain as deployed and seeded (or as loaded), before interval mining starts.
    const block = Number(await clients.publicClient.getBlockNumber({ cacheTime: 0 }))
    const snapshot = { id: await clients.testClient.snapshot(), block }
    await clients.testClient.setIntervalMining({ interval: dev.blockTime })

    if (manifest) {
      writeFileAtomic(path, `${JSON.stringify(manifest, null, 2)}\n`)
      log.info({ path }, 'deployment manifest written')
    } else {
      // A manifest of an earlier chain would send the faucet to a contract this one does not have.
      rmSync(path, { force: true })
    }
    return { anvil, manifest, manifestPath: path, seed, deployed: deployer === 0, resumed, forkedAt, snapshot, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    if (error instanceof DevnetError) throw error
    throw new DevnetError(`setting up the dev chain failed: ${firstLine(error)}`)
  }
}

/** anvil's arguments for `dev.state` (saved at stop, loaded at start) and `dev.fork`. */
function anvilArgs(config: Config): string[] {
  const { fork } = config.dev
  if (config.devState) return ['--state', config.devState]
  if (fork.url === '') return []
  return ['--fork-url', fork.url, ...(fork.block > 0 ? ['--fork-block-number', String(fork.block)] : [])]
}

/**
 * The manifest of a contract set deployed before this start (a saved chain, or a fork of a dev
 * chain): the fixed addresses, when the first and the last of them hold code. Its deployment
 * block is the one the data folder's manifest names for the same addresses, else the first block
 * whose state holds the first contract's code (a saved chain keeps no older states: then 0).
 */
async function deployedEarlier(clients: DevClients, chainId: number, path: string): Promise<Manifest | null> {
  const { publicClient } = clients
  const contracts = predictedAddresses()
  const names = Object.keys(contracts) as Array<keyof typeof contracts>
  for (const name of [names[0]!, names.at(-1)!]) {
    const code = await publicClient.getCode({ address: contracts[name] })
    if (!code || code === '0x') return null
  }
  const deploymentBlock = keptDeploymentBlock(path, chainId, contracts.BX) ?? (await firstBlockWithCode(clients, contracts.BX).catch(() => 0))
  return { chainId, deploymentBlock, deployer: devAccounts.deployer.address, operator: devAccounts.operator.address, contracts }
}

function keptDeploymentBlock(path: string, chainId: number, first: Address): number | null {
  try {
    const kept = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>
    const same = kept.chainId === chainId && kept.contracts?.BX?.toLowerCase() === first.toLowerCase()
    return same && typeof kept.deploymentBlock === 'number' ? kept.deploymentBlock : null
  } catch {
    return null
  }
}

/** The first block after which `address` holds code, by bisection over the chain's states. */
async function firstBlockWithCode({ publicClient }: DevClients, address: Address): Promise<number> {
  let low = 0
  let high = Number(await publicClient.getBlockNumber({ cacheTime: 0 }))
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    const code = await publicClient.getCode({ address, blockNumber: BigInt(middle) })
    if (code && code !== '0x') high = middle
    else low = middle + 1
  }
  return low
}
