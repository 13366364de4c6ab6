import { expect, test } from 'bun:test'
import { parseConfig } from '../config/load.ts'
import { predictedAddresses } from '../devnet/deploy.ts'
import { exchangeAddresses } from './settings.ts'

test('the default addresses are the ones every fresh dev chain deploys to (and its manifest lists)', () => {
  const config = parseConfig('', null)
  const deployed = predictedAddresses()
  expect(config.exchange).toMatchObject({
    v2Factory: deployed.UniswapV2Factory,
    v3Factory: deployed.UniswapV3Factory,
    weth: deployed.WETH9,
    ethUsdFeed: deployed.EthUsdFeed,
    ethUsdMaxAgeSeconds: 3600,
  })
  expect(exchangeAddresses(config)).toEqual({
    v2Factory: deployed.UniswapV2Factory.slice(2).toLowerCase(),
    v3Factory: deployed.UniswapV3Factory.slice(2).toLowerCase(),
    weth: deployed.WETH9.slice(2).toLowerCase(),
  })
})

test('ethUsdFeed = "" turns dollar figures off; a malformed address is a config error', () => {
  expect(parseConfig('[exchange]\nethUsdFeed = ""\n', null).exchange.ethUsdFeed).toBe('')
  expect(() => parseConfig('[exchange]\nethUsdFeed = "0x12"\n', null)).toThrow(/exchange\.ethUsdFeed/)
  expect(() => parseConfig('[exchange]\nv2Factory = "0x12"\n', null)).toThrow(/exchange\.v2Factory/)
})
