import { createChain } from '../chain/client.ts'
import { FatalError } from '../errors.ts'
import { manifestPath } from '../chain/manifest.ts'
import type { Config, DatabaseTarget } from '../config/load.ts'
import type { ServiceContext } from '../context.ts'
import type { Listening } from '../http/serve.ts'
import { serviceNames, type ServiceName } from '../config/schema.ts'
import { FAUCET_LEASE } from '../spool/postgres/lease.ts'
import { startSpool, SpoolIdentityError, type Role, type Spool } from '../spool/spool.ts'
import { spoolWiring } from '../streams.ts'
import { DEV_OPERATOR_KEY, devAccounts } from '../devnet/accounts.ts'
import { startDevnet, type Devnet } from '../devnet/devnet.ts'
import { keepFeedFresh, type FeedKeeper } from '../devnet/priceFeed.ts'
import { bufferedLines, createLogger, type Logger } from '../log.ts'
import { removeRuntime, writeRuntime, type Runtime } from '../ops/runtime.ts'
import { statusWhenReady } from '../ops/status.ts'
import { checkServiceSettings, startServices } from '../services.ts'
import { VERSION } from '../version.ts'
import { privateKeyToAccount } from 'viem/accounts'
import { devBanner } from './banner.ts'
import { devContractBook, verifyOwnContracts } from './devContracts.ts'
import { guardProcess } from './guard.ts'
import { databaseProbe } from './operator.ts'
import { onShutdown } from './shutdown.ts'

/** `--json`: stdout carries one line, the status once the stack is ready, so the log goes to stderr. */
export type RunOptions = { json: boolean }

/** `stack start`'s options: `role` says what the instance does with a database. */
export type StartOptions = RunOptions & { role: Role }

function logger(config: Config, { json }: RunOptions): Logger {
  return createLogger({ level: config.log.level, ...(json ? { destination: bufferedLines(2), pretty: false } : {}) })
}

/**
 * `stack dev` runs its own chain on the embedded spool file: a config that names a database is
 * refused, in one line, rather than started on the file while the operator believes it runs on
 * the database.
 */
function refuseDatabase(config: Config): void {
  const target = config.database.target
  if (!target) return
  throw new FatalError(
    `the config names the database at ${target.where}, but stack dev keeps its chain's spool in its own file: leave database.url empty and STACK_DATABASE_URL unset for dev, or run 'stack start' against the node`,
  )
}

/**
 * `stack start`: the services against the node the config names. Never starts a node. With a
 * database, `role` says what this instance does (docs/operating.md): `all` writes and serves,
 * `indexer` only follows the node and derives, `api` only serves.
 */
export async function start(config: Config, options: StartOptions): Promise<void> {
  const { role } = options
  if (role !== 'all' && !config.database.target) {
    throw new FatalError(`--role ${role} is for a stack on a database, which instances share: name it in database.url (or STACK_DATABASE_URL), or start without --role`)
  }
  checkServiceSettings(config)
  const log = logger(config, options)
  log.info({ version: VERSION, config: config.file ?? '(defaults)', dataDir: config.dataDir, rpc: config.chain.rpc, role }, 'starting')
  const key = config.secrets.faucetKey
  if (!key && role !== 'indexer') {
    log.warn(config.database.target ? 'FAUCET_OPERATOR_KEY is not set: this instance does not open the faucet' : 'FAUCET_OPERATOR_KEY is not set: the faucet will refuse to drip')
  }
  const chain = createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId })
  const spool = await startSpool(config, spoolWiring(config), log, { role })
  const faucet = await faucetLease(spool, key !== null, log)
  const names = serviceNames.filter((name) => role !== 'indexer' && (name !== 'faucet' || faucet.serve))
  const services = await serve({ config, log, chain }, spool, [], names, faucet.release ? [faucet.release] : [])
  const operator = key && faucet.serve ? privateKeyToAccount(key).address : null
  await announce(runtimeOf(config, services, 'start', { operator, publicDevKey: operator === devAccounts.operator.address }, spool), options, config.database.target)
}

/**
 * Whether this instance serves the faucet. On the embedded file it always does (refusing drips
 * without the key). On a database only an instance with the operator's key does, and only while
 * it holds the faucet's lease, so that the quotas, kept in the journal of one instance, never
 * split: a second instance with the key stands aside while the first holds it.
 */
async function faucetLease(spool: Spool, hasKey: boolean, log: Logger): Promise<{ serve: boolean; release: (() => Promise<void>) | null }> {
  if (!spool.database) return { serve: true, release: null }
  if (!hasKey || spool.database.role === 'indexer') return { serve: false, release: null }
  const taken = await spool.database.claim(FAUCET_LEASE, (error) => {
    log.fatal({ error: error.message }, 'the faucet lease was lost: stopping, so that two faucets never drip from split quotas')
    process.kill(process.pid, 'SIGTERM')
  })
  if ('holder' in taken && taken.lease === null) {
    log.warn({ holder: taken.holder }, 'another instance serves the faucet (it holds the faucet lease): this one does not open the faucet')
    return { serve: false, release: null }
  }
  return { serve: true, release: () => taken.lease!.stop() }
}

/**
 * Opens the services `names` over the spool and arranges the stop: on a signal, or when the spool
 * stops for good, the listeners close first, then the leases this instance holds are given up
 * (the faucet's: a standby need not wait for it to lapse), then the spool, then whatever `also`
 * holds (the dev chain), and the runtime file `stack status` reads goes last.
 */
async function serve(
  context: ServiceContext,
  spool: Spool,
  also: Array<() => Promise<void>>,
  names: readonly ServiceName[] = serviceNames,
  leases: Array<() => Promise<void>> = [],
): Promise<Listening[]> {
  let services: Listening[]
  try {
    services = await startServices(context, spool, names)
  } catch (error) {
    for (const stop of leases) await stop()
    await spool.stop()
    for (const stop of also) await stop()
    throw error
  }
  guardProcess(context.log)
  const forget = async () => removeRuntime(context.config.dataDir)
  const closers = [() => Promise.all(services.map((service) => service.stop())).then(() => undefined), ...leases, spool.stop, ...also, forget]
  onShutdown(context.log, closers)
  void spool.fatal.then(async (error) => {
    context.log.fatal({ error: error.message }, 'stopping: the spool cannot go on')
    for (const close of closers) await close().catch(() => {})
    process.exit(1)
  })
  return services
}

/** `stack dev`: the local chain (fresh, saved or forked) with the contract set, then the services against it. */
export async function dev(fileConfig: Config, options: RunOptions): Promise<void> {
  refuseDatabase(fileConfig)
  checkServiceSettings(fileConfig)
  const log = logger(fileConfig, options)
  log.info({ version: VERSION, config: fileConfig.file ?? '(defaults)', dataDir: fileConfig.dataDir }, 'starting dev')
  const devnet = await startDevnet(fileConfig, log)
  const config: Config = {
    ...fileConfig,
    chain: { ...fileConfig.chain, rpc: devnet.anvil.rpcUrl, ws: devnet.anvil.wsUrl },
    secrets: { ...fileConfig.secrets, faucetKey: DEV_OPERATOR_KEY },
    arcade: { ...fileConfig.arcade, catchUpBlocks: catchUpOnFork(fileConfig.arcade.catchUpBlocks, devnet) },
    // On a fork, one request at a time (see forkHistoryFirst).
    spool: devnet.forkedAt === null ? fileConfig.spool : { ...fileConfig.spool, concurrency: 1 },
  }
  log.warn({ operator: devAccounts.operator.address }, "the faucet operator signs with anvil's public dev key #1; never use it outside the local chain")

  const chain = createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId })
  let spool: Spool
  try {
    spool = await devSpool(config, devnet, log)
  } catch (error) {
    await devnet.stop()
    throw error
  }
  if (devnet.forkedAt !== null && config.spool.startBlock <= devnet.forkedAt) {
    try {
      await forkHistoryFirst(spool, devnet.forkedAt, log)
    } catch (error) {
      await spool.stop()
      await devnet.stop()
      throw error
    }
  }
  try {
    await verifyOwnContracts(devnet, spool, config.chain.chainId, log)
  } catch (error) {
    await spool.stop()
    await devnet.stop()
    throw error
  }
  const keeper = feedKeeper(config, devnet, log)
  const book = devContractBook(config, spool.reader, chain)
  const services = await serve({ config, log, chain, book }, spool, [...(keeper ? [keeper.stop] : []), devnet.stop])
  const stopServices = () => Promise.all(services.map((service) => service.stop())).then(() => undefined)

  // The chain is part of this process's promise: if it dies, say so and stop everything.
  void devnet.anvil.process.exited.then(async (code) => {
    if (devnet.anvil.process.killed) return
    log.error({ code }, 'the dev chain (anvil) exited; stopping')
    await stopServices()
    await spool.stop()
    removeRuntime(config.dataDir)
    process.exit(1)
  })

  const runtime: Runtime = {
    ...runtimeOf(config, services, 'dev', { operator: devAccounts.operator.address, publicDevKey: true }, spool),
    snapshot: devnet.snapshot,
    state: config.devState,
    fork: config.dev.fork.url ? { url: config.dev.fork.url, block: config.dev.fork.block || null } : null,
  }
  if (!options.json) {
    process.stderr.write(
      devBanner({
        rpcUrl: devnet.anvil.rpcUrl,
        wsUrl: devnet.anvil.wsUrl,
        chainId: config.chain.chainId,
        blockTime: config.dev.blockTime,
        services,
        manifestPath: devnet.manifestPath,
        operator: devAccounts.operator.address,
        rateLimitPerMinute: config.explorer.rateLimitPerMinute,
      }),
    )
  }
  await announce(runtime, options)
}

/**
 * The dev chain's price feed kept fresh by chain time (see keepFeedFresh), when the exchange reads
 * that feed: `stack dev` only, since on a chain of its own no one else updates it.
 */
function feedKeeper(config: Config, devnet: Devnet, log: Logger): FeedKeeper | null {
  const feed = devnet.manifest?.contracts.EthUsdFeed
  if (!feed || feed.toLowerCase() !== config.exchange.ethUsdFeed.toLowerCase()) return null
  return keepFeedFresh({
    rpcUrl: devnet.anvil.rpcUrl,
    feed,
    owner: devAccounts.treasury.address,
    maxAgeSeconds: config.exchange.ethUsdMaxAgeSeconds,
    pinned: config.dev.pinEthUsd,
    log,
  })
}

/**
 * anvil 1.7 forking another chain can stop answering altogether when requests that it serves
 * from the other chain overlap (measured here: a fork of a dev chain hung in one start of three
 * with the spool's four requests in flight over the forked blocks, and in none of twenty with
 * one). So on a fork the spool asks one request at a time and copies the fork's history before
 * the services open, and the arcade's first catch-up reads only the fork's own blocks. A fork of
 * a long chain wants a spool.startBlock near the fork block.
 */
async function forkHistoryFirst(spool: Spool, forkedAt: number, log: Logger): Promise<void> {
  log.info({ forkedAt }, "copying the forked chain's history into the spool before the services open")
  let stopped: Error | null = null
  void spool.fatal.then((error) => (stopped = error))
  while ((spool.health().spoolHeadBlock ?? -1) < forkedAt) {
    if (stopped) throw stopped
    await Bun.sleep(50)
  }
}

/** On a fork, the arcade's first catch-up reads only the fork's own blocks (see forkHistoryFirst). */
function catchUpOnFork(catchUpBlocks: number, devnet: Devnet): number {
  if (devnet.forkedAt === null) return catchUpBlocks
  return Math.max(0, Math.min(catchUpBlocks, devnet.snapshot.block - devnet.forkedAt - 1))
}

/**
 * The dev chain's spool: a fresh one for a fresh or forked chain; for a chain loaded from
 * `dev.state`, the one it left, which resumes where it stopped (started afresh if it holds
 * another chain). Either way the spool follows a reset to the chain's reset point, however deep.
 */
async function devSpool(config: Config, devnet: Devnet, log: Logger): Promise<Spool> {
  const resetBlock = devnet.snapshot.block
  if (devnet.resumed) {
    try {
      return await startSpool(config, spoolWiring(config), log, { resetBlock })
    } catch (error) {
      if (!(error instanceof SpoolIdentityError)) throw error
      log.warn({ reason: error.message }, 'the spool holds another chain than the saved one; it starts afresh')
    }
  }
  return startSpool(config, spoolWiring(config), log, { fresh: true, resetBlock })
}

function runtimeOf(config: Config, services: Listening[], mode: Runtime['mode'], faucet: Runtime['faucet'], spool: Spool): Runtime {
  const url = (name: string) => services.find((service) => service.service === name)?.url ?? null
  return {
    pid: process.pid,
    mode,
    version: VERSION,
    startedAt: new Date().toISOString(),
    config: config.file,
    dataDir: config.dataDir,
    chainId: config.chain.chainId,
    rpcUrl: config.chain.rpc,
    wsUrl: config.chain.ws,
    services: { explorer: url('explorer'), exchange: url('exchange'), faucet: url('faucet'), arcade: url('arcade'), etherscan: url('etherscan') },
    manifestPath: manifestPath(config.dataDir),
    faucet,
    snapshot: null,
    state: null,
    fork: null,
    database: spool.database && { where: spool.database.where, schema: spool.database.schema, role: spool.database.role },
  }
}

/** How long `--json` waits for the stack to be ready before it prints the status as it stands. */
const READY_TIMEOUT_MS = 120_000

/**
 * Writes the runtime file `stack status` and `stack reset` find the stack by; with `--json`,
 * prints the status once the stack is ready (every service answering, the spool and its streams at
 * the node's head, the arcade ready), or as it stands after two minutes.
 */
async function announce(runtime: Runtime, options: RunOptions, target: DatabaseTarget | null = null): Promise<void> {
  writeRuntime(runtime)
  if (options.json) process.stdout.write(`${JSON.stringify(await statusWhenReady(runtime, READY_TIMEOUT_MS, databaseProbe(target)))}\n`)
}
