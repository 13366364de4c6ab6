import type { Chain } from './chain/client.ts'
import type { Config } from './config/load.ts'
import type { Logger } from './log.ts'

/** What every service is built from: the checked config, the process's logger and the node. */
export type ServiceContext = {
  config: Config
  log: Logger
  chain: Chain
}
