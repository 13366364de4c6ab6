import { readFileSync } from 'node:fs'
import { parseManifest } from '../chain/manifest.ts'
import { createRpc } from '../chain/rpc.ts'
import { spoolSize, type SpoolSize } from '../files/spoolFile.ts'
import { pollUntil } from '../time/poll.ts'
import { getJson, nodeHead, PROBE_MS, type Body } from './reads.ts'
import { OPERATOR_PATH, type Runtime } from './runtime.ts'

/** One service as `stack status` reports it: where it answers, whether it does, and how far behind the node it is. */
export type ServiceStatus = {
  url: string
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
  /** Whether every service answers its health. */
  healthy: boolean
}

/** Asks each service of the running stack how it is, and the node its head. */
export async function stackStatus(runtime: Runtime): Promise<StackStatus> {
  const rpc = createRpc(runtime.rpcUrl, { timeoutMs: PROBE_MS })
  const head = await nodeHead(rpc)
  const [explorer, exchange, faucet, arcade, etherscan] = await Promise.all([
    explorerStatus(runtime.services.explorer, head),
    exchangeStatus(runtime.services.exchange),
    faucetStatus(runtime.services.faucet, head),
    arcadeStatus(runtime.services.arcade, head),
    etherscanStatus(runtime.services.etherscan, head),
  ])
  const services = { explorer, exchange, faucet, arcade, etherscan }
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
    healthy: Object.values(services).every((service) => service.healthy),
  }
}

/**
 * Whether the stack is ready for work: every service answers, the spool and every derived stream
 * are at the node's head (a block of slack: a block may land between two probes), and the arcade
 * is ready.
 */
export function isReady(status: StackStatus): boolean {
  const { explorer, exchange, arcade } = status.services
  const atHead = (lag: unknown) => typeof lag === 'number' && lag <= 1
  return status.healthy && atHead(explorer.lagBlocks) && atHead(explorer.derivedLagBlocks) && atHead(exchange.lagBlocks) && arcade.ready === true
}

/** The status once the stack is ready, or as it stands after `timeoutMs`. */
export async function statusWhenReady(runtime: Runtime, timeoutMs: number): Promise<StackStatus> {
  return (await pollUntil(() => stackStatus(runtime), isReady, { timeoutMs, intervalMs: 250 })).value
}

/** Runs a probe; a service that does not answer, or answers wrong, is reported unhealthy with the reason. */
async function probe(url: string, read: () => Promise<Omit<ServiceStatus, 'url'>>): Promise<ServiceStatus> {
  try {
    return { url, ...(await read()) } as ServiceStatus
  } catch (error) {
    return { url, healthy: false, lagBlocks: null, error: error instanceof Error ? error.message : String(error) }
  }
}

const behind = (head: number | null, at: unknown) => (head === null || typeof at !== 'number' ? null : Math.max(0, head - at))

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
  const { explorer, exchange, faucet, arcade } = status.services
  lines.push(['STACK_EXPLORER_URL', explorer.url], ['STACK_EXPLORER_API_URL', explorer.api ?? `${explorer.url}/api`])
  if (explorer.pages) lines.push(['STACK_EXPLORER_PAGES_URL', explorer.pages])
  lines.push(['STACK_EXCHANGE_URL', exchange.url], ['STACK_FAUCET_URL', faucet.url], ['STACK_ARCADE_URL', arcade.url], ['STACK_ARCADE_WS_URL', `${arcade.url.replace(/^http/, 'ws')}/ws`])
  lines.push(['STACK_ETHERSCAN_URL', status.services.etherscan.url], ['STACK_ETHERSCAN_API_URL', `${status.services.etherscan.url}/api`])
  for (const [name, service] of Object.entries(status.services)) {
    const key = name.toUpperCase()
    lines.push([`STACK_${key}_HEALTHY`, service.healthy], [`STACK_${key}_LAG_BLOCKS`, service.lagBlocks ?? ''])
  }
  lines.push(['STACK_FAUCET_OPERATOR', status.faucet.operator ?? ''], ['STACK_FAUCET_PUBLIC_DEV_KEY', status.faucet.publicDevKey])
  lines.push(['STACK_MANIFEST', status.manifestPath], ['STACK_SPOOL_BYTES', status.spool.bytes])
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
  const lines = [
    `stack ${status.mode} (pid ${status.pid}, ${status.version}), chain ${status.chainId} at ${status.rpcUrl} (${status.wsUrl}), head ${status.nodeHead ?? 'unknown'}`,
    `  explorer   ${explorer.url}/api   ${mark(explorer)}`,
    ...(explorer.pages ? [`  browse     ${explorer.pages}`] : []),
    `  exchange   ${exchange.url}   ${mark(exchange)}`,
    `  faucet     ${faucet.url}   ${mark(faucet)}`,
    `  arcade     ${arcade.url}/api   ${arcade.url.replace(/^http/, 'ws')}/ws/<room>   ${mark(arcade)}${arcade.ready === false ? ' (not ready)' : ''}`,
    `  etherscan  ${etherscan.url}/api   sourcify ${etherscan.url}/sourcify   ${mark(etherscan)}`,
    `  metrics    /metrics on each service`,
    `  manifest   ${status.manifestPath} (${Object.keys(status.contracts).length} contracts)`,
    `  spool      ${status.spool.path} ${humanBytes(status.spool.bytes)} (file ${humanBytes(status.spool.fileBytes)}, log ${humanBytes(status.spool.walBytes)})`,
    `  faucet key ${status.faucet.publicDevKey ? "anvil's public dev key #1: never use it outside this local chain" : status.faucet.operator ? `operator ${status.faucet.operator}` : 'none: the faucet does not drip'}`,
  ]
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
