import { addressKey } from '../../eth/address.ts'

/**
 * Of a pool's two values (reserves, balances), the one on the wrapped-ether side, or null when
 * neither token is wrapped ether. `weth` is 40 lower-case hex digits.
 */
export function wethSide<T>(token0: Uint8Array, token1: Uint8Array, value0: T, value1: T, weth: string): T | null {
  if (addressKey(token0) === weth) return value0
  if (addressKey(token1) === weth) return value1
  return null
}
