import type { Config } from './config/load.ts'
import type { Logger } from './log.ts'

/** What every service is built from: the checked config and the process's logger. */
export type ServiceContext = {
  config: Config
  log: Logger
}
