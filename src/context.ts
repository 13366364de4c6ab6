import type { Chain } from './chain/client.ts'
import type { Config } from './config/load.ts'
import type { ContractBook } from './contracts/book.ts'
import type { ServiceName } from './config/schema.ts'
import type { Registry } from './http/metrics.ts'
import type { Logger } from './log.ts'

/**
 * Where the other services of this process answer, once they listen: the origin of each (a port
 * of 0 in the config is only known then), or null. Services reach each other over HTTP, never
 * by import: the explorer links to the faucet's page and proxies the exchange index for browsers.
 */
export type Peers = { url: (service: ServiceName) => string | null }

/** What every service is built from: the checked config, the process's logger and the node. */
export type ServiceContext = {
  config: Config
  log: Logger
  chain: Chain
  /** Absent when a service runs alone (tests, benches). */
  peers?: Peers
  /** The process's metrics every service shows at /metrics beside its own (the spool, the process); absent when a service runs alone. */
  sharedMetrics?: Registry
  /**
   * What the stack knows of each contract, one book for every service: built by the composition
   * root (under `stack dev` with the local build artifacts); absent when a service runs alone,
   * where `createContractBook(spool.reader, { chain })` stands in.
   */
  book?: ContractBook
}
