import { parseAbi } from 'viem'

/**
 * The parts of contracts/Faucet.sol the service calls, typed for viem. A test checks each
 * entry against the compiled artifact, so this cannot drift from the contract.
 */
export const faucetAbi = parseAbi([
  'function dripTo(address to)',
  'function retryIn(address to) view returns (uint256)',
  'function ethAmount() view returns (uint256)',
  'function tokenAmount() view returns (uint256)',
  'function token() view returns (address)',
  'function operator() view returns (address)',
  'function COOLDOWN() view returns (uint256)',
  'error NotOperator(address caller)',
  'error CoolingDown(address to, uint256 nextDripAt)',
  'error FaucetEmpty(uint256 ethBalance, uint256 tokenBalance)',
  'error EtherTransferFailed(address to)',
])

/** The ERC-20 reads the status needs from the native token. */
export const tokenAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
])
