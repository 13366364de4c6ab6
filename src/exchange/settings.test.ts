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
    usdToken: deployed.DUSD,
  })
  expect(exchangeAddresses(config)).toEqual({
    v2Factory: deployed.UniswapV2Factory.slice(2).toLowerCase(),
    v3Factory: deployed.UniswapV3Factory.slice(2).toLowerCase(),
    weth: deployed.WETH9.slice(2).toLowerCase(),
    usdToken: deployed.DUSD.slice(2).toLowerCase(),
  })
})

test('usdToken = "" turns dollar figures off; a malformed address is a config error', () => {
  expect(exchangeAddresses(parseConfig('[exchange]\nusdToken = ""\n', null)).usdToken).toBeNull()
  expect(() => parseConfig('[exchange]\nv2Factory = "0x12"\n', null)).toThrow(/exchange\.v2Factory/)
})
