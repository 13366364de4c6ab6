import { startAnvil, type Anvil, type AnvilOptions } from '../../src/chain/anvil.ts'

export type { Anvil }

/**
 * A bare anvil (chain 78270) on a free loopback port, for tests of the node's own behaviour;
 * tests/helpers/devChain.ts adds the contract set and typed ways to act on the chain.
 */
export function spawnAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  return startAnvil({ port: 0, ...options })
}
