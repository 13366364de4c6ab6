import type { SpoolDb } from '../spool/engine.ts'
import type { Chain } from '../chain/client.ts'
import type { Config } from '../config/load.ts'
import { createArtifactIndex } from '../contracts/artifacts.ts'
import { createContractBook, type ContractBook } from '../contracts/book.ts'
import { devClients } from '../devnet/deploy.ts'
import type { Devnet } from '../devnet/devnet.ts'
import { ownVerifications } from '../devnet/verifications.ts'
import type { Logger } from '../log.ts'
import type { Spool } from '../spool/spool.ts'

/**
 * Records the verifications of the stack's own contracts on the dev chain (the dev chain says
 * which artifact each address is and carries their sources; the spool keeps them). They have no
 * creation block: they belong to the chain's reset point, which no reorganisation short of a new
 * chain (and so a fresh spool) takes back. Returns how many were recorded.
 */
export async function verifyOwnContracts(devnet: Devnet, spool: Spool, chainId: number, log: Logger): Promise<number> {
  if (!devnet.manifest) return 0
  const verifications = await ownVerifications(devClients(devnet.anvil.rpcUrl, chainId), devnet.manifest)
  const writer = spool.verifications()
  try {
    for (const verification of verifications) await writer.record(verification)
  } finally {
    writer.close()
  }
  log.info({ contracts: verifications.length }, "the stack's own contracts verified")
  return verifications.length
}

/** The contract book of `stack dev`: the spool's verifications, the node, and the local build artifacts of `dev.artifacts`. */
export function devContractBook(config: Config, reader: SpoolDb, chain: Chain): ContractBook {
  return createContractBook(reader, { chain, artifacts: createArtifactIndex(config.devArtifacts) })
}
