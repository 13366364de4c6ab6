import { toEventSelector } from 'viem'

// The events the two streams read, by their canonical signatures (events.test.ts checks them
// against the ABIs of the npm artifacts). Written out rather than imported so the spool worker
// does not load the contracts' bytecode to learn 32-byte constants.

/**
 * Topic0 as 0x-hex (what the framework selects on), and its first four bytes as a number (how a
 * stream tells its events apart: selectorOf in eth/words.ts; events.test.ts checks that they
 * differ within each family).
 */
const topic = (signature: string) => {
  const selector = toEventSelector(signature)
  return { signature, selector, head: Number.parseInt(selector.slice(2, 10), 16) }
}

export const v2Events = {
  PairCreated: topic('PairCreated(address,address,address,uint256)'),
  Sync: topic('Sync(uint112,uint112)'),
  Swap: topic('Swap(address,uint256,uint256,uint256,uint256,address)'),
  Mint: topic('Mint(address,uint256,uint256)'),
  Burn: topic('Burn(address,uint256,uint256,address)'),
}

export const clEvents = {
  FeeAmountEnabled: topic('FeeAmountEnabled(uint24,int24)'),
  PoolCreated: topic('PoolCreated(address,address,uint24,int24,address)'),
  Initialize: topic('Initialize(uint160,int24)'),
  Swap: topic('Swap(address,address,int256,int256,uint160,uint128,int24)'),
  Mint: topic('Mint(address,address,int24,int24,uint128,uint256,uint256)'),
  Burn: topic('Burn(address,int24,int24,uint128,uint256,uint256)'),
  Collect: topic('Collect(address,address,int24,int24,uint128,uint128)'),
  // Neither is in the spec's list, but both move tokens in or out of a pool: without them the
  // balances would drift from the pool's ERC-20 balances after a flash loan or a protocol-fee claim.
  Flash: topic('Flash(address,address,uint256,uint256,uint256,uint256)'),
  CollectProtocol: topic('CollectProtocol(address,address,uint128,uint128)'),
}
