/**
 * Of a pool's two values (reserves, balances), the one on the wrapped-ether side, or null when
 * neither token is wrapped ether. `weth` is 40 lower-case hex digits.
 */
export function wethSide<T>(token0: Uint8Array, token1: Uint8Array, value0: T, value1: T, weth: string): T | null {
  if (Buffer.from(token0).toString('hex') === weth) return value0
  if (Buffer.from(token1).toString('hex') === weth) return value1
  return null
}
