import type { Config } from '../config/load.ts'
import { addressKey } from '../eth/address.ts'

/** The exchange's contracts as the streams and queries compare them: 40 lower-case hex digits, no 0x. */
export type ExchangeAddresses = {
  v2Factory: string
  v3Factory: string
  weth: string
}

export function exchangeAddresses(config: Config): ExchangeAddresses {
  const { v2Factory, v3Factory, weth } = config.exchange
  return { v2Factory: addressKey(v2Factory), v3Factory: addressKey(v3Factory), weth: addressKey(weth) }
}
