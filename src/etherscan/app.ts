import { Elysia } from 'elysia'
import { getAddress } from 'viem'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { health } from '../http/health.ts'
import { ServiceMetrics } from '../http/metrics.ts'
import { ethUsdFeedReading } from '../chain/ethUsdFeed.ts'
import { createContractBook } from '../contracts/book.ts'
import { spoolHead } from '../spool/read.ts'
import type { Spool } from '../spool/spool.ts'
import { verifiedCount } from '../spool/verified.ts'
import { dispatcher, type EtherscanModule } from './dispatch.ts'
import { ETHERSCAN_MAX_BODY } from './fields.ts'
import { accountModule } from './modules/account.ts'
import { blockModule } from './modules/block.ts'
import { logsModule } from './modules/logs.ts'
import { proxyModule } from './modules/proxy.ts'
import { statsModule } from './modules/stats.ts'
import { transactionModule } from './modules/transaction.ts'
import { etherscanRpc, tokenInfoReader } from './node.ts'
import { apiRoutes } from './routes/api.ts'

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
  })
  const db = spool.reader
  const rpc = etherscanRpc(context.chain.rpcUrl)
  const book = createContractBook(db)
  const ethUsd = ethUsdFeedReading({
    rpcUrl: context.chain.rpcUrl,
    feed: config.exchange.ethUsdFeed ? getAddress(config.exchange.ethUsdFeed) : null,
    maxAgeSeconds: config.exchange.ethUsdMaxAgeSeconds,
  })
  const modules: Record<string, EtherscanModule> = {
    account: accountModule({ db, rpc, book, tokenInfo: tokenInfoReader(rpc) }),
    logs: logsModule(db),
    transaction: transactionModule(db, book),
    block: blockModule(db),
    stats: statsModule({ rpc, ethUsd }),
    proxy: proxyModule({ db, rpc, chainId: context.chain.chainId }),
  }
  return new Elysia({ nativeStaticResponse: false })
    .use(shared.plugin)
    .get('/health', () => ({ ...health('etherscan'), spoolHeadBlock: spoolHead(spool.reader), verifiedContracts: verifiedCount(spool.reader) }))
    .use(apiRoutes(dispatcher(modules)))
}
