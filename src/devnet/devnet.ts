import { startAnvil, type Anvil } from '../chain/anvil.ts'
import { manifestPath } from '../chain/manifest.ts'
import type { Config } from '../config/load.ts'
import { writeFileAtomic } from '../files/writeFileAtomic.ts'
import type { Logger } from '../log.ts'
import { deployContracts, devClients, DevnetError, type Manifest } from './deploy.ts'
import { seedActivity, type SeedReport } from './seed.ts'
import { firstLine } from '../errors.ts'

// The manifest's file name is the chain layer's (the faucet reads the file too); still offered
// here for the bench that writes a manifest of its own.
export { MANIFEST_FILE } from '../chain/manifest.ts'

export type Devnet = {
  anvil: Anvil
  manifest: Manifest
  manifestPath: string
  seed: SeedReport | null
  /** Stops the node. */
  stop: () => Promise<void>
}

/**
 * A fresh local chain: starts anvil mining on demand (so deploying and seeding take well under a
 * second), deploys the contract set, seeds activity, switches to interval mining, and writes the
 * deployment manifest. A failure at any step stops the node again.
 */
export async function startDevnet(config: Config, log: Logger): Promise<Devnet> {
  const { dev } = config
  const anvil = await startAnvil({ host: dev.host, port: dev.port, chainId: config.chain.chainId })
  log.info({ rpc: anvil.rpcUrl, ws: anvil.wsUrl, chainId: config.chain.chainId }, 'dev chain started')
  try {
    const started = performance.now()
    const clients = devClients(anvil.rpcUrl, config.chain.chainId)
    const manifest = await deployContracts(clients, { faucetDripEth: dev.faucetDripEth, faucetDripBx: dev.faucetDripBx })
    log.info({ contracts: Object.keys(manifest.contracts).length, block: manifest.deploymentBlock }, 'contracts deployed')
    const seed = dev.seed
      ? await seedActivity(clients, manifest, { faucetFundEth: dev.faucetFundEth, faucetFundBx: dev.faucetFundBx })
      : null
    if (seed) log.info({ transactions: seed.transactions, ms: Math.round(performance.now() - started) }, 'demo activity seeded')
    await clients.testClient.setIntervalMining({ interval: dev.blockTime })

    const path = manifestPath(config.dataDir)
    writeFileAtomic(path, `${JSON.stringify(manifest, null, 2)}\n`)
    log.info({ path }, 'deployment manifest written')
    return { anvil, manifest, manifestPath: path, seed, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    if (error instanceof DevnetError) throw error
    throw new DevnetError(`setting up the dev chain failed: ${firstLine(error)}`)
  }
}
