import type { Rpc } from '../chain/rpc.ts'
import { getMeta, setMeta } from './meta.ts'
import type { SpoolWriter } from './engine.ts'
import { FatalError } from '../errors.ts'
import { quantity } from '../eth/quantity.ts'

/** The node is a different chain from the one the spool holds (or the config expects). */
export class SpoolIdentityError extends FatalError {
  override name = 'SpoolIdentityError'
}

/**
 * Checks that the node is the chain the config expects and the chain the spool holds (same
 * chain id, same genesis hash), and records both in a new spool.
 */
export async function checkIdentity(writer: SpoolWriter, rpc: Rpc, expectedChainId: number, path: string): Promise<void> {
  const nodeChainId = quantity(await rpc.call<string>('eth_chainId'))
  const genesis = await rpc.call<{ hash: string } | null>('eth_getBlockByNumber', ['0x0', false])
  // A node that pruned its genesis cannot prove it; the chain id and the stored tip still must match.
  const genesisHash = genesis?.hash.toLowerCase() ?? null
  if (nodeChainId !== expectedChainId) {
    throw new SpoolIdentityError(`the node at ${rpc.url} is chain ${nodeChainId}, but chain.chainId is ${expectedChainId}`)
  }
  const storedChain = await getMeta(writer, 'chain_id')
  const storedGenesis = await getMeta(writer, 'genesis_hash')
  if (storedChain === null) {
    await writer.transaction(async (tx) => {
      await setMeta(tx, 'chain_id', String(nodeChainId))
      if (genesisHash) await setMeta(tx, 'genesis_hash', genesisHash)
    })
    return
  }
  const sameChain = Number(storedChain) === nodeChainId
  const sameGenesis = storedGenesis === null || genesisHash === null || storedGenesis === genesisHash
  if (!sameChain || !sameGenesis) {
    throw new SpoolIdentityError(
      `the spool ${path} holds chain ${storedChain} (genesis ${storedGenesis ?? 'unknown'}), ` +
        `but the node at ${rpc.url} is chain ${nodeChainId} (genesis ${genesisHash ?? 'unknown'}); ` +
        'point chain.rpc at the right node, or move the spool away to start a new one',
    )
  }
}
