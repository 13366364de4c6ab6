import { createChain } from '../chain/client.ts'
import type { Config } from '../config/load.ts'
import type { ServiceContext } from '../context.ts'
import type { Listening } from '../http/serve.ts'
import { startSpool, type Spool } from '../spool/spool.ts'
import { spoolWiring } from '../streams.ts'
import { DEV_OPERATOR_KEY, devAccounts } from '../devnet/accounts.ts'
import { startDevnet } from '../devnet/devnet.ts'
import { createLogger } from '../log.ts'
import { checkServiceSettings, startServices } from '../services.ts'
import { VERSION } from '../version.ts'
import { devBanner } from './banner.ts'
import { guardProcess } from './guard.ts'
import { onShutdown } from './shutdown.ts'

/** `stack start`: the four services against the node the config names. Never starts a node. */
export async function start(config: Config): Promise<void> {
  checkServiceSettings(config)
  const log = createLogger({ level: config.log.level })
  log.info({ version: VERSION, config: config.file ?? '(defaults)', dataDir: config.dataDir, rpc: config.chain.rpc }, 'starting')
  if (!config.secrets.faucetKey) {
    log.warn('FAUCET_OPERATOR_KEY is not set: the faucet will refuse to drip')
  }
  const chain = createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId })
  const spool = await startSpool(config, spoolWiring(config), log)
  await serve({ config, log, chain }, spool, [])
}

/**
 * Opens the services over the spool and arranges the stop: on a signal, or when the spool stops
 * for good, the listeners close first, then the spool, then whatever `also` holds (the dev chain).
 */
async function serve(context: ServiceContext, spool: Spool, also: Array<() => Promise<void>>): Promise<Listening[]> {
  let services: Listening[]
  try {
    services = await startServices(context, spool)
  } catch (error) {
    await spool.stop()
    for (const stop of also) await stop()
    throw error
  }
  guardProcess(context.log)
  const closers = [() => Promise.all(services.map((service) => service.stop())).then(() => undefined), spool.stop, ...also]
  onShutdown(context.log, closers)
  void spool.fatal.then(async (error) => {
    context.log.fatal({ error: error.message }, 'stopping: the spool cannot go on')
    for (const close of closers) await close().catch(() => {})
    process.exit(1)
  })
  return services
}

/** `stack dev`: a fresh local chain with the contract set, then the four services against it. */
export async function dev(fileConfig: Config): Promise<void> {
  checkServiceSettings(fileConfig)
  const log = createLogger({ level: fileConfig.log.level })
  log.info({ version: VERSION, config: fileConfig.file ?? '(defaults)', dataDir: fileConfig.dataDir }, 'starting dev')
  const devnet = await startDevnet(fileConfig, log)
  const config: Config = {
    ...fileConfig,
    chain: { ...fileConfig.chain, rpc: devnet.anvil.rpcUrl, ws: devnet.anvil.wsUrl },
    secrets: { ...fileConfig.secrets, faucetKey: DEV_OPERATOR_KEY },
  }
  log.warn({ operator: devAccounts.operator.address }, "the faucet operator signs with anvil's public dev key #1; never use it outside the local chain")

  const chain = createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId })
  let spool: Spool
  try {
    // The dev chain is new at every start, so is its spool.
    spool = await startSpool(config, spoolWiring(config), log, { fresh: true })
  } catch (error) {
    await devnet.stop()
    throw error
  }
  const services = await serve({ config, log, chain }, spool, [devnet.stop])
  const stopServices = () => Promise.all(services.map((service) => service.stop())).then(() => undefined)

  // The chain is part of this process's promise: if it dies, say so and stop everything.
  void devnet.anvil.process.exited.then(async (code) => {
    if (devnet.anvil.process.killed) return
    log.error({ code }, 'the dev chain (anvil) exited; stopping')
    await stopServices()
    await spool.stop()
    process.exit(1)
  })

  process.stderr.write(
    devBanner({
      rpcUrl: devnet.anvil.rpcUrl,
      wsUrl: devnet.anvil.wsUrl,
      chainId: config.chain.chainId,
      blockTime: config.dev.blockTime,
      services,
      manifestPath: devnet.manifestPath,
      operator: devAccounts.operator.address,
    }),
  )
}
