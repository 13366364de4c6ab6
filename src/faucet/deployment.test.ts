import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MANIFEST_FILE, manifestPath } from '../chain/manifest.ts'
import { parseConfig } from '../config/load.ts'
import { faucetLocator } from './deployment.ts'
import { FaucetUnavailableError } from './errors.ts'

const FAUCET = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'
const OTHER = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

function setup(faucetTable = '') {
  const dir = mkdtempSync(join(tmpdir(), 'faucet-deployment-'))
  const config = parseConfig(`[data]\ndir = "${dir}"\n[faucet]\n${faucetTable}`, null)
  const write = (manifest: unknown, mtime: number) => {
    writeFileSync(manifestPath(config.dataDir), typeof manifest === 'string' ? manifest : JSON.stringify(manifest))
    utimesSync(manifestPath(config.dataDir), mtime, mtime)
  }
  return { dir, config, locate: faucetLocator(config), write }
}

const unavailable = (locate: () => unknown) => {
  try {
    locate()
  } catch (error) {
    expect(error).toBeInstanceOf(FaucetUnavailableError)
    return (error as FaucetUnavailableError).message
  }
  throw new Error('expected the faucet to be unavailable')
}

test('the manifest names the faucet, and a new manifest is picked up without a restart', () => {
  const { config, locate, write } = setup()
  expect(manifestPath(config.dataDir)).toEndWith(MANIFEST_FILE)
  expect(unavailable(locate)).toBe('faucet not deployed: no faucet contract is configured and there is no deployment manifest')
  write({ chainId: 78270, contracts: { Faucet: FAUCET.toLowerCase() } }, 1000)
  expect(locate()).toBe(FAUCET)
  write({ chainId: 78270, contracts: { Faucet: OTHER } }, 2000)
  expect(locate()).toBe(OTHER)
})

test('a manifest for another chain, one that is not JSON, or one without a faucet is not a deployment', () => {
  const { locate, write } = setup()
  write({ chainId: 1, contracts: { Faucet: FAUCET } }, 1000)
  expect(unavailable(locate)).toBe('faucet not deployed: the deployment manifest is for chain 1, not 78270')
  write('{"chainId": 78270', 2000)
  expect(unavailable(locate)).toBe('faucet not deployed: the deployment manifest is not valid JSON')
  write({ chainId: 78270, contracts: {} }, 3000)
  expect(unavailable(locate)).toBe('faucet not deployed: the deployment manifest names no Faucet contract')
})

test('faucet.contract in the config wins over the manifest', () => {
  const { dir, locate } = setup(`contract = "${OTHER}"\n`)
  rmSync(dir, { recursive: true })
  expect(locate()).toBe(OTHER)
})
