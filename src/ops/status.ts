import { readFileSync } from 'node:fs'
import { parseManifest } from '../chain/manifest.ts'
import { createRpc } from '../chain/rpc.ts'
import { spoolSize, type SpoolSize } from '../files/spoolFile.ts'
import { pollUntil } from '../time/poll.ts'
import { getJson, nodeHead, PROBE_MS, type Body } from './reads.ts'
import { OPERATOR_PATH, type Runtime } from './runtime.ts'

/**
 * One service as `stack status` reports it: where it answers, whether it does, and how far behind
 * the node it is. A service this instance does not serve (an instance on a database may serve
 * fewer) has no url, and counts as healthy.
 */
export type ServiceStatus = {
  url: string | null
  healthy: boolean
  /** Blocks behind the node (the explorer: its spool; the exchange: its slower stream; the arcade: its last mini-block; the faucet: the block it reads at); null when unknown. */
  lagBlocks: number | null
  /** Why it is not healthy. */
  error?: string
} & Record<string, unknown>

/** What `stack status` prints and `stack dev --json` prints once ready: the runtime file's facts, and how each service is now. */
export type StackStatus = { running: true } & Pick<
  Runtime,
  'pid' | 'mode' | 'version' | 'startedAt' | 'config' | 'dataDir' | 'chainId' | 'rpcUrl' | 'wsUrl' | 'manifestPath' | 'faucet' | 'state' | 'fork'
> & {
  /** The node's head, or null when it does not answer. */
  nodeHead: number | null
  services: { explorer: ServiceStatus; exchange: ServiceStatus; faucet: ServiceStatus; arcade: ServiceStatus; etherscan: ServiceStatus }
  /** The deployment manifest's contracts (checksummed), empty when there is none. */
  contracts: Record<string, string>
  /** The reset point's block (the snapshot's id stays in the runtime file). */
  snapshot: { block: number } | null
  /** The spool's size on disk (its file and write-ahead log), in bytes. */
  spool: SpoolSize
  /** On a database: the database's side (null on the embedded file). */
  database: DatabaseStatus | null
  /** Whether every service answers its health. */
  healthy: boolean
}

/**
 * An instance on a database, as `stack status` reports it: where the database is, this instance's
 * role, the spool's head there and how far behind the node it is, and which instance holds the
 * indexer's lease (its heartbeat's age by the database's clock).
 */
export type DatabaseStatus = {
  where: string
  schema: string
  role: string
  head: number | null
  lagBlocks: number | null
  indexer: { holder: string; epoch: number; heartbeatAgeMs: number; acquiredAt: string } | null
  error?: string
}

/** How the status learns the database's side, given the node's head (the command line reads the database; null on the embedded file). */
export type DatabaseProbe = (runtime: Runtime, head: number | null) => Promise<DatabaseStatus | null>

/** Asks each service of the running stack how it is, and the node its head; on a database, `database` reads its side. */
export async function stackStatus(runtime: Runtime, database: DatabaseProbe = async () => null): Promise<StackStatus> {
  const rpc = createRpc(runtime.rpcUrl, { timeoutMs: PROBE_MS })
  const head = await nodeHead(rpc)
  const served = <T extends unknown[]>(url: string | null, status: (url: string, ...rest: T) => Promise<ServiceStatus>, ...rest: T) => (url === null ? Promise.resolve(notServed) : status(url, ...rest))
  const [explorer, exchange, faucet, arcade, etherscan] = await Promise.all([
    served(runtime.services.explorer, explorerStatus, head),
    served(runtime.services.exchange, exchangeStatus),
    served(runtime.services.faucet, faucetStatus, head),
    served(runtime.services.arcade, arcadeStatus, head),
    served(runtime.services.etherscan, etherscanStatus, head),
  ])
  const services = { explorer, exchange, faucet, arcade, etherscan }
  const databaseStatus = await database(runtime, head)
  return {
    running: true,
    pid: runtime.pid,
    mode: runtime.mode,
    version: runtime.version,
    startedAt: runtime.startedAt,
    config: runtime.config,
    dataDir: runtime.dataDir,
    chainId: runtime.chainId,
    rpcUrl: runtime.rpcUrl,
    wsUrl: runtime.wsUrl,
    nodeHead: head,
    services,
    manifestPath: runtime.manifestPath,
    contracts: manifestContracts(runtime.manifestPath, runtime.chainId),
    faucet: runtime.faucet,
    snapshot: runtime.snapshot && { block: runtime.snapshot.block },
    state: runtime.state,
    fork: runtime.fork,
    spool: spoolSize(runtime.dataDir),
    database: databaseStatus,
    healthy: Object.values(services).every((service) => service.healthy) && !databaseStatus?.error,
  }
}

/**
 * Whether the stack is ready for work: every service it serves answers, the spool and every derived stream
 * are at the node's head (a block of slack: a block may land between two probes), and the arcade
 * is ready.
 */
export function isReady(status: StackStatus): boolean {
  const { explorer, exchange, arcade } = status.services
  const atHead = (lag: unknown) => typeof lag === 'number' && lag <= 1
  // An indexer serves nothing: it is ready once the database's spool is at the node's head.
  if (explorer.url === null) return status.healthy && atHead(status.database?.lagBlocks)
  return status.healthy && atHead(explorer.lagBlocks) && atHead(explorer.derivedLagBlocks) && atHead(exchange.lagBlocks) && arcade.ready === true
}

/** The status once the stack is ready, or as it stands after `timeoutMs`. */
export async function statusWhenReady(runtime: Runtime, timeoutMs: number, database?: DatabaseProbe): Promise<StackStatus> {
  return (await pollUntil(() => stackStatus(runtime, database), isReady, { timeoutMs, intervalMs: 250 })).value
}

/** Runs a probe; a service that does not answer, or answers wrong, is reported unhealthy with the reason. */
async function probe(url: string, read: () => Promise<Omit<ServiceStatus, 'url'>>): Promise<ServiceStatus> {
  try {
    return { url, ...(await read()) } as ServiceStatus
  } catch (error) {
    return { url, healthy: false, lagBlocks: null, error: error instanceof Error ? error.message : String(error) }
  }
}

const notServed: ServiceStatus = { url: null, healthy: true, lagBlocks: null, served: false }

export const behind = (head: number | null, at: unknown) => (head === null || typeof at !== 'number' ? null : Math.max(0, head - at))

/** The explorer through its operator route, which the per-client minute does not count: a CI suite that spent the minute leaves the status true. */
function explorerStatus(url: string, head: number | null): Promise<ServiceStatus> {
  return probe(url, async () => {
    const [operator, pages] = await Promise.all([getJson(`${url}${OPERATOR_PATH}`), getJson(`${url}/`)])
    const body = (operator.body?.stats ?? {}) as Body
    // The spool's head as the explorer reads it now, against the head just asked of the node: the
    // stats' own figures may be a second old, and after a reset a second is the whole chain.
    const indexed = operator.body?.spool?.head ?? body.indexedBlock
    const lagBlocks = head === null ? body.indexLag : behind(head, indexed)
    return {
      healthy: operator.status === 200,
      lagBlocks: typeof lagBlocks === 'number' ? lagBlocks : null,
      api: `${url}/api`,
      // The pages, when this build serves them (an HTML page at the root).
      pages: pages.status === 200 && /<html/i.test(pages.text) ? `${url}/` : null,
      metrics: `${url}/metrics`,
      indexedBlock: indexed ?? null,
      derivedLagBlocks: body.derivedLag ?? null,
    }
  })
}

function exchangeStatus(url: string): Promise<ServiceStatus> {
  return probe(url, async () => {
    const { status, body } = await getJson(`${url}/health`)
    const streams = (body?.streams ?? {}) as Record<string, { lagBlocks: number | null }>
    const lags = Object.values(streams).map((stream) => stream.lagBlocks)
    return {
      healthy: status === 200,
      // The slower stream: the concentrated one may backfill behind the other (docs/exchange.md).
      lagBlocks: lags.length > 0 && lags.every((lag) => typeof lag === 'number') ? Math.max(...(lags as number[])) : null,
      metrics: `${url}/metrics`,
      spoolHeadBlock: body?.spoolHeadBlock ?? null,
      streams: Object.fromEntries(Object.entries(streams).map(([name, stream]) => [name, { lagBlocks: stream.lagBlocks }])),
    }
  })
}

function faucetStatus(url: string, head: number | null): Promise<ServiceStatus> {
  return probe(url, async () => {
    const [health, status] = await Promise.all([getJson(`${url}/health`), getJson(`${url}/status`)])
    return {
      healthy: health.status === 200,
      lagBlocks: status.status === 200 ? behind(head, status.body?.evmBlock) : null,
      page: `${url}/`,
      metrics: `${url}/metrics`,
      // 200 once a deployment is known and the node answers; the faucet drips only then.
      deployed: status.status === 200,
    }
  })
}

function arcadeStatus(url: string, head: number | null): Promise<ServiceStatus> {
  return probe(url, async () => {
    const [health, ready, stats] = await Promise.all([getJson(`${url}/api/health`), getJson(`${url}/api/ready`), getJson(`${url}/api/stats`)])
    return {
      healthy: health.status === 200,
      lagBlocks: behind(head, stats.body?.head?.block),
      ws: `${url.replace(/^http/, 'ws')}/ws/<room>`,
      metrics: `${url}/metrics`,
      ready: ready.status === 200,
      head: stats.body?.head?.number ?? null,
      sockets: stats.body?.sockets?.total ?? null,
    }
  })
}

/** The Etherscan-compatible listener: its health, and the spool's head it reads. A runtime file of a build without it has no URL. */
function etherscanStatus(url: string | undefined, head: number | null): Promise<ServiceStatus> {
  if (url === undefined) return Promise.resolve({ url: '', healthy: false, lagBlocks: null, error: 'not running (a build without it started this stack)' })
  return probe(url, async () => {
    const { status, body } = await getJson(`${url}/health`)
    return {
      healthy: status === 200,
      lagBlocks: behind(head, body?.spoolHeadBlock),
      api: `${url}/api`,
      sourcify: `${url}/sourcify`,
      metrics: `${url}/metrics`,
      verifiedContracts: body?.verifiedContracts ?? null,
    }
  })
}

/** The manifest's contracts, or none when it cannot be read (before a deployment, on a node the stack did not set up). */
function manifestContracts(path: string, chainId: number): Record<string, string> {
  try {
    return parseManifest(readFileSync(path, 'utf8'), chainId).contracts as Record<string, string>
  } catch {
    return {}
  }
}

/** `KEY=value` lines a CI step can source: every value a URL, a number, an address or true/false, so none needs quoting. */
export function statusEnv(status: StackStatus): string {
  const lines: Array<[string, unknown]> = [
    ['STACK_PID', status.pid],
    ['STACK_MODE', status.mode],
    ['STACK_CHAIN_ID', status.chainId],
    ['STACK_RPC_URL', status.rpcUrl],
    ['STACK_WS_URL', status.wsUrl],
    ['STACK_NODE_HEAD', status.nodeHead ?? ''],
    ['STACK_HEALTHY', status.healthy],
  ]
  const { explorer, exchange, faucet, arcade, etherscan } = status.services
  // A service this instance does not serve has no URL lines.
  if (explorer.url) lines.push(['STACK_EXPLORER_URL', explorer.url], ['STACK_EXPLORER_API_URL', explorer.api ?? `${explorer.url}/api`])
  if (explorer.pages) lines.push(['STACK_EXPLORER_PAGES_URL', explorer.pages])
  if (exchange.url) lines.push(['STACK_EXCHANGE_URL', exchange.url])
  if (faucet.url) lines.push(['STACK_FAUCET_URL', faucet.url])
  if (arcade.url) lines.push(['STACK_ARCADE_URL', arcade.url], ['STACK_ARCADE_WS_URL', `${arcade.url.replace(/^http/, 'ws')}/ws`])
  if (etherscan.url) lines.push(['STACK_ETHERSCAN_URL', etherscan.url], ['STACK_ETHERSCAN_API_URL', `${etherscan.url}/api`])
  for (const [name, service] of Object.entries(status.services)) {
    const key = name.toUpperCase()
    lines.push([`STACK_${key}_HEALTHY`, service.healthy], [`STACK_${key}_LAG_BLOCKS`, service.lagBlocks ?? ''])
  }
  lines.push(['STACK_FAUCET_OPERATOR', status.faucet.operator ?? ''], ['STACK_FAUCET_PUBLIC_DEV_KEY', status.faucet.publicDevKey])
  lines.push(['STACK_MANIFEST', status.manifestPath], ['STACK_SPOOL_BYTES', status.spool.bytes])
  const { database } = status
  if (database) {
    lines.push(['STACK_DATABASE', database.where], ['STACK_DATABASE_SCHEMA', database.schema], ['STACK_ROLE', database.role])
    lines.push(['STACK_DATABASE_HEAD', database.head ?? ''], ['STACK_DATABASE_LAG_BLOCKS', database.lagBlocks ?? ''], ['STACK_INDEXER', database.indexer?.holder ?? ''])
  }
  for (const [name, address] of Object.entries(status.contracts)) lines.push([`STACK_CONTRACT_${envName(name)}`, address])
  if (status.snapshot) lines.push(['STACK_RESET_BLOCK', status.snapshot.block])
  return lines.map(([key, value]) => `${key}=${shellValue(String(value))}\n`).join('')
}

/** `UniswapV2Factory` → `UNISWAP_V2_FACTORY`, `NFTDescriptor` → `NFT_DESCRIPTOR`, `WETH9` → `WETH9`. */
export function envName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]/g, '_')
    .toUpperCase()
}

/** A value as a shell reads it back unchanged: bare when it is plain, else in single quotes. */
function shellValue(value: string): string {
  return /^[A-Za-z0-9_./:@-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}

/** The lines a person reads. */
export function statusText(status: StackStatus): string {
  const { explorer, exchange, faucet, arcade, etherscan } = status.services
  const mark = (service: ServiceStatus) => (service.healthy ? `ok, ${service.lagBlocks ?? '?'} blocks behind` : `DOWN: ${service.error ?? 'not healthy'}`)
  const line = (name: string, service: ServiceStatus, where: (url: string) => string) => `  ${name.padEnd(10)} ${service.url === null ? 'not served by this instance' : `${where(service.url)}   ${mark(service)}`}`
  const { database } = status
  const lines = [
    `stack ${status.mode} (pid ${status.pid}, ${status.version}), chain ${status.chainId} at ${status.rpcUrl} (${status.wsUrl}), head ${status.nodeHead ?? 'unknown'}`,
    line('explorer', explorer, (url) => `${url}/api`),
    ...(explorer.pages ? [`  browse     ${explorer.pages}`] : []),
    line('exchange', exchange, (url) => url),
    line('faucet', faucet, (url) => url),
    `${line('arcade', arcade, (url) => `${url}/api   ${url.replace(/^http/, 'ws')}/ws/<room>`)}${arcade.ready === false ? ' (not ready)' : ''}`,
    line('etherscan', etherscan, (url) => `${url}/api   sourcify ${url}/sourcify`),
    `  metrics    /metrics on each service`,
    `  manifest   ${status.manifestPath} (${Object.keys(status.contracts).length} contracts)`,
    `  spool      ${status.spool.path} ${humanBytes(status.spool.bytes)} (file ${humanBytes(status.spool.fileBytes)}, log ${humanBytes(status.spool.walBytes)})`,
    `  faucet key ${status.faucet.publicDevKey ? "anvil's public dev key #1: never use it outside this local chain" : status.faucet.operator ? `operator ${status.faucet.operator}` : 'none: the faucet does not drip'}`,
  ]
  if (database) {
    const at = database.error ? `DOWN: ${database.error}` : `head ${database.head ?? 'none yet'}, ${database.lagBlocks ?? '?'} blocks behind`
    lines.push(`  database   ${database.where} schema "${database.schema}", role ${database.role}: ${at}`)
    if (!database.error) lines.push(`  indexer    ${database.indexer ? `${database.indexer.holder} (epoch ${database.indexer.epoch}, heartbeat ${database.indexer.heartbeatAgeMs} ms ago)` : 'none holds the lease'}`)
  }
  if (status.snapshot) lines.push(`  reset to   block ${status.snapshot.block} (stack reset)`)
  if (status.state) lines.push(`  state      ${status.state}`)
  if (status.fork) lines.push(`  fork of    ${status.fork.url}${status.fork.block === null ? '' : ` at block ${status.fork.block}`}`)
  return `${lines.join('\n')}\n`
}

/** Bytes as a person reads them: `512 B`, `3.4 KiB`, `120.0 MiB`, `1.2 GiB`. */
export function humanBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`
}
