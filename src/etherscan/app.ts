import { Elysia } from 'elysia'
import { getAddress } from 'viem'
import { ethUsdFeedReading } from '../chain/ethUsdFeed.ts'
import { createContractBook } from '../contracts/book.ts'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { health } from '../http/health.ts'
import { ServiceMetrics } from '../http/metrics.ts'
import { spoolHead } from '../spool/read.ts'
import { databaseHealth, type Spool } from '../spool/spool.ts'
import { verifiedCount } from '../spool/verified.ts'
import { createVerifier } from '../verify/verifier.ts'
import { dispatcher, type EtherscanModule, type ProxyModule } from './dispatch.ts'
import { ETHERSCAN_MAX_BODY } from './fields.ts'
import { createJobs } from './jobs.ts'
import { accountModule } from './modules/account.ts'
import { blockModule } from './modules/block.ts'
import { contractModule } from './modules/contract.ts'
import { logsModule } from './modules/logs.ts'
import { proxyModule } from './modules/proxy.ts'
import { statsModule } from './modules/stats.ts'
import { transactionModule } from './modules/transaction.ts'
import { etherscanRpc, tokenInfoReader } from './node.ts'
import { apiRoutes } from './routes/api.ts'
import { sourcifyCodeOf, sourcifyErrorFields, sourcifyRoutes } from './routes/sourcify.ts'
import { createVerifications } from './verifications.ts'

/** Sourcify's routes answer even the conventions' refusals (413, 429) with Sourcify's keys. */
const SOURCIFY_PREFIX = '/sourcify/'

/**
 * The Etherscan-compatible listener (docs/etherscan.md): Etherscan's `/api` with its modules, and
 * Sourcify's API under `/sourcify/`. A listener of its own, beside the explorer (which answers
 * every POST 405), over the same spool. Everything that is neither Etherscan's nor Sourcify's
 * answer follows the shared conventions (the JSON 404, 413, 429).
 */
export function createEtherscanApp(context: ServiceContext, spool: Spool) {
  const { config, log } = context
  const { host, corsOrigins, trustedProxyHops, rateLimitPerMinute } = config.etherscan
  const metrics = new ServiceMetrics('etherscan', context.sharedMetrics)
  const shared = conventions({
    service: 'etherscan',
    log,
    host,
    cors: { origins: corsOrigins, methods: ['GET', 'POST', 'OPTIONS'], headers: 'Content-Type' },
    trustedProxyHops,
    maxBodyBytes: ETHERSCAN_MAX_BODY,
    rateLimitPerMinute,
    rateLimited: (path) => path !== '/health' && path !== '/metrics',
    metrics,
    errorFields: (path, status, message) => (path.startsWith(SOURCIFY_PREFIX) ? sourcifyErrorFields(sourcifyCodeOf(status), message) : null),
  })
  const { concurrency, timeoutSeconds, queue } = config.verify
  const engine = createVerifier({ compilers: config.verifyCompilers, concurrency, timeoutSeconds, queue }, log)
  const jobs = createJobs()
  // A job waits for the spool before it reaches the engine's queue: no more may wait than it holds.
  const verifications = createVerifications({ spool, chain: context.chain, engine, jobs, log, maxPending: concurrency + queue })
  const book = context.book ?? createContractBook(spool.reader, { chain: context.chain })
  const db = spool.reader
  const rpc = etherscanRpc(context.chain.rpcUrl)
  const ethUsd = ethUsdFeedReading({
    rpcUrl: context.chain.rpcUrl,
    feed: config.exchange.ethUsdFeed ? getAddress(config.exchange.ethUsdFeed) : null,
    maxAgeSeconds: config.exchange.ethUsdMaxAgeSeconds,
  })
  const modules: Record<string, EtherscanModule | ProxyModule> = {
    contract: contractModule({ reader: db, book, jobs, verifications }),
    account: accountModule({ db, rpc, book, tokenInfo: tokenInfoReader(rpc) }),
    logs: logsModule(db),
    transaction: transactionModule(db, book),
    block: blockModule(db),
    stats: statsModule({ rpc, ethUsd }),
    proxy: proxyModule({ db, rpc, chainId: context.chain.chainId }),
  }
  return new Elysia({ nativeStaticResponse: false })
    .use(shared.plugin)
    .get('/health', async () => ({
      ...health('etherscan'),
      spoolHeadBlock: await spoolHead(spool.reader),
      verifiedContracts: await verifiedCount(spool.reader),
      ...(await databaseHealth(spool)),
    }))
    .use(apiRoutes(dispatcher(modules)))
    .use(sourcifyRoutes({ chainId: config.chain.chainId, reader: spool.reader, jobs, verifications, log }))
    .onStop(() => {
      engine.stop()
      verifications.close()
    })
}
