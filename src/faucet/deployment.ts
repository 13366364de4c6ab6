import { readFileSync, statSync } from 'node:fs'
import type { Address } from 'viem'
import { ManifestError, manifestPath, parseManifest } from '../chain/manifest.ts'
import type { Config } from '../config/load.ts'
import { parseDripAddress } from './address.ts'
import { FaucetUnavailableError } from './errors.ts'

/**
 * Finds the faucet contract: `faucet.contract` when the config sets it, otherwise the
 * manifest's `contracts.Faucet`. The manifest is read again whenever the file changes, so a
 * faucet started before a deployment picks it up without a restart.
 */
export function faucetLocator(config: Config): () => Address {
  const configured = config.faucet.contract ? parseDripAddress(config.faucet.contract) : null
  if (configured) return () => configured
  const path = manifestPath(config.dataDir)
  let cached: { stamp: string; address: Address } | null = null
  return () => {
    let stamp: string
    try {
      const stats = statSync(path)
      stamp = `${stats.mtimeMs}:${stats.size}`
    } catch {
      throw new FaucetUnavailableError('faucet not deployed: no faucet contract is configured and there is no deployment manifest')
    }
    if (cached?.stamp === stamp) return cached.address
    const address = faucetFromManifest(readFileSync(path, 'utf8'), config.chain.chainId)
    cached = { stamp, address }
    return address
  }
}

function faucetFromManifest(text: string, chainId: number): Address {
  let address: Address | undefined
  try {
    address = parseManifest(text, chainId).contracts.Faucet
  } catch (error) {
    if (error instanceof ManifestError) throw new FaucetUnavailableError(`faucet not deployed: ${error.message}`)
    throw error
  }
  if (!address) throw new FaucetUnavailableError('faucet not deployed: the deployment manifest names no Faucet contract')
  return address
}
