import type { Config } from '../config/load.ts'

/** The exchange's contracts as the streams and queries compare them: 40 lower-case hex digits, no 0x. */
export type ExchangeAddresses = {
  v2Factory: string
  v3Factory: string
  weth: string
}

const bare = (address: string) => address.slice(2).toLowerCase()

export function exchangeAddresses(config: Config): ExchangeAddresses {
  const { v2Factory, v3Factory, weth } = config.exchange
  return { v2Factory: bare(v2Factory), v3Factory: bare(v3Factory), weth: bare(weth) }
}
