import { join } from 'node:path'
import { zeroAddress, type Address } from 'viem'
import { RetryableError } from '../errors.ts'
import { parseAddress } from '../eth/address.ts'

/**
 * The deployment manifest is the file that says where a deployment put its contracts: `stack dev`
 * writes it after deploying, the faucet finds its contract in it and serves it at `/addresses`.
 * Neither owns it, so it lives here, beside the chain it describes.
 */

/** The manifest's file name in the data folder. */
export const MANIFEST_FILE = 'l2-addresses.json'

/**
 * The manifest as a deployment writes it. `Name` is the contract names the deployment knows (the
 * dev chain's are its deploy order); a reader takes any.
 */
export type Manifest<Name extends string = string> = {
  chainId: number
  deploymentBlock: number
  deployer: Address
  operator: Address
  contracts: Record<Name, Address>
}

/** The manifest as a reader can rely on it: the chain it is for, and the addresses it names. */
export type ManifestAddresses = {
  chainId: number
  /** Only the names whose value is an address (checksummed; never the zero address). */
  contracts: Partial<Record<string, Address>>
}

/** A manifest that cannot be used as it is; a deployment that rewrites the file may cure it. */
export class ManifestError extends RetryableError {
  override name = 'ManifestError'
}

/** Where the manifest of a data folder lives. */
export function manifestPath(dataDir: string): string {
  return join(dataDir, MANIFEST_FILE)
}

/**
 * Reads a manifest's text for the chain `chainId`: it must be a JSON object for that chain. A
 * contract whose entry is not an address is left out, so a reader asking for it learns that the
 * manifest names none.
 */
export function parseManifest(text: string, chainId: number): ManifestAddresses {
  let manifest: unknown
  try {
    manifest = JSON.parse(text)
  } catch {
    throw new ManifestError('the deployment manifest is not valid JSON')
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw new ManifestError('the deployment manifest is not a JSON object')
  }
  const { chainId: written, contracts } = manifest as { chainId?: unknown; contracts?: unknown }
  if (written !== chainId) throw new ManifestError(`the deployment manifest is for chain ${written}, not ${chainId}`)
  const addresses: Partial<Record<string, Address>> = {}
  if (typeof contracts === 'object' && contracts !== null) {
    for (const [name, value] of Object.entries(contracts)) {
      const address = parseAddress(value)
      if (address && address !== zeroAddress) addresses[name] = address
    }
  }
  return { chainId, contracts: addresses }
}
