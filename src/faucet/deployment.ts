import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Address } from 'viem'
import type { Config } from '../config/load.ts'
import type { Manifest } from '../devnet/deploy.ts'
import { MANIFEST_FILE } from '../devnet/devnet.ts'
import { parseDripAddress } from './address.ts'
import { FaucetUnavailableError } from './errors.ts'

/** Where the deployment manifest lives: the file `stack dev` writes and `/addresses` serves. */
export function manifestPath(config: Config): string {
  return join(config.dataDir, MANIFEST_FILE)
}

/**
 * Finds the faucet contract: `faucet.contract` when the config sets it, otherwise the
 * manifest's `contracts.Faucet`. The manifest is read again whenever the file changes, so a
 * faucet started before a deployment picks it up without a restart.
 */
export function faucetLocator(config: Config): () => Address {
  const configured = config.faucet.contract ? parseDripAddress(config.faucet.contract) : null
  if (configured) return () => configured
  const path = manifestPath(config)
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
  let manifest: Partial<Manifest>
  try {
    manifest = JSON.parse(text)
  } catch {
    throw new FaucetUnavailableError('faucet not deployed: the deployment manifest is not valid JSON')
  }
  if (manifest.chainId !== chainId) {
    throw new FaucetUnavailableError(`faucet not deployed: the deployment manifest is for chain ${manifest.chainId}, not ${chainId}`)
  }
  const address = parseDripAddress(manifest.contracts?.Faucet)
  if (!address) throw new FaucetUnavailableError('faucet not deployed: the deployment manifest names no Faucet contract')
  return address
}
