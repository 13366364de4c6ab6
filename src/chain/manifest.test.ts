import { expect, test } from 'bun:test'
import { MANIFEST_FILE, ManifestError, manifestPath, parseManifest } from './manifest.ts'

const FAUCET = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'

test('the manifest of a data folder, and the addresses it names, checksummed', () => {
  expect(manifestPath('/srv/data')).toBe(`/srv/data/${MANIFEST_FILE}`)
  const text = JSON.stringify({ chainId: 78270, contracts: { Faucet: FAUCET.toLowerCase(), Zero: `0x${'0'.repeat(40)}`, Odd: 'no' } })
  expect(parseManifest(text, 78270)).toEqual({ chainId: 78270, contracts: { Faucet: FAUCET } })
  expect(parseManifest('{"chainId": 78270}', 78270).contracts).toEqual({})
})

test('a manifest that is not JSON, not an object, or for another chain is a ManifestError', () => {
  const refusal = (text: string) => {
    try {
      parseManifest(text, 78270)
    } catch (error) {
      expect(error).toBeInstanceOf(ManifestError)
      return (error as Error).message
    }
    throw new Error('expected a ManifestError')
  }
  expect(refusal('{"chainId": 78270')).toBe('the deployment manifest is not valid JSON')
  expect(refusal('null')).toBe('the deployment manifest is not a JSON object')
  expect(refusal('{"chainId": 1}')).toBe('the deployment manifest is for chain 1, not 78270')
})
