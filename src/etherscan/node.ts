import { decodeFunctionResult, encodeFunctionData, hexToString, parseAbi, type Address, type Hex } from 'viem'
import { createCache } from '../cache.ts'
import { createRpc, type Rpc, type RpcResult } from '../chain/rpc.ts'
import { NodeUnreachableError } from '../errors.ts'
import { checksum } from '../eth/address.ts'

/** The longest a read this listener makes of the node may take: an `eth_call` runs no longer. */
export const NODE_TIME_LIMIT_MS = 5000
/** The most gas an `eth_call` or `eth_estimateGas` through this listener may use: under a block's 30 million. */
export const CALL_GAS_CAP = 25_000_000n

/** The node as this listener reads it: one JSON-RPC client with the listener's time limit. */
export function etherscanRpc(rpcUrl: string): Rpc {
  return createRpc(rpcUrl, { timeoutMs: NODE_TIME_LIMIT_MS })
}

const tokenAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
])

/** What a token list row says of its token; empty strings where the contract does not tell. */
export type TokenInfo = { name: string; symbol: string; decimals: string }

/** A string result, or a bytes32 one (older tokens), or "" when neither. */
function text(result: RpcResult | undefined, functionName: 'name' | 'symbol'): string {
  if (!result?.ok) return ''
  const data = result.value as Hex
  try {
    return decodeFunctionResult({ abi: tokenAbi, functionName, data })
  } catch {
    if (typeof data === 'string' && data.length === 66) return hexToString(data as Hex, { size: 32 }).replace(/\0+$/, '')
    return ''
  }
}

/** How long a token's name, symbol and decimals serve (they do not change in practice). */
const TOKEN_INFO_KEPT_MS = 10 * 60_000

/**
 * Token names, symbols and decimals read from the contracts (one batch a token), kept for ten
 * minutes. With the node away a token reads as empty strings, so lists still answer from the
 * spool; that answer is not kept.
 */
export function tokenInfoReader(rpc: Rpc): (token: Uint8Array) => Promise<TokenInfo> {
  const cache = createCache<string, TokenInfo>({
    max: 10_000,
    ttl: TOKEN_INFO_KEPT_MS,
    fetchMethod: async (address) => {
      const call = (functionName: 'name' | 'symbol' | 'decimals') => ({
        method: 'eth_call',
        params: [{ to: address, data: encodeFunctionData({ abi: tokenAbi, functionName }) }, 'latest'],
      })
      const [name, symbol, decimals] = await rpc.batch([call('name'), call('symbol'), call('decimals')])
      let places = ''
      if (decimals?.ok) {
        try {
          places = String(decodeFunctionResult({ abi: tokenAbi, functionName: 'decimals', data: decimals.value as Hex }))
        } catch {
          places = ''
        }
      }
      return { name: text(name, 'name'), symbol: text(symbol, 'symbol'), decimals: places }
    },
  })
  return async (token) => {
    try {
      return (await cache.fetch(checksum(token)))!
    } catch (error) {
      if (error instanceof NodeUnreachableError) return { name: '', symbol: '', decimals: '' }
      throw error
    }
  }
}

/** A token contract's read that answers a uint256 (balanceOf, totalSupply), as a decimal string; null when the contract does not answer one. */
export async function readTokenUint(rpc: Rpc, token: Address, read: { functionName: 'totalSupply' } | { functionName: 'balanceOf'; holder: Address }): Promise<string | null> {
  const data =
    read.functionName === 'balanceOf'
      ? encodeFunctionData({ abi: tokenAbi, functionName: 'balanceOf', args: [read.holder] })
      : encodeFunctionData({ abi: tokenAbi, functionName: 'totalSupply' })
  const [result] = await rpc.batch([{ method: 'eth_call', params: [{ to: token, data }, 'latest'] }])
  if (!result?.ok) return null
  try {
    return String(decodeFunctionResult({ abi: tokenAbi, functionName: read.functionName, data: result.value as Hex }))
  } catch {
    return null
  }
}
