import { getAddress, type Address, type Hex } from 'viem'
import { fromChain, type Chain } from '../chain/client.ts'
import { NodeUnreachableError } from '../errors.ts'

/** How a proxy names the contract its calls run: a storage slot of a standard, or its own code. */
export type ProxyKind = 'eip1967' | 'eip1967-beacon' | 'eip1822' | 'eip1167'

export type DetectedProxy = { kind: ProxyKind; implementation: Address }

/** bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1) */
export const EIP1967_IMPLEMENTATION_SLOT: Hex = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
/** bytes32(uint256(keccak256('eip1967.proxy.beacon')) - 1): a beacon, whose implementation() names the code. */
export const EIP1967_BEACON_SLOT: Hex = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50'
/** keccak256('PROXIABLE'): EIP-1822's slot. */
export const EIP1822_SLOT: Hex = '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7'
/** implementation(): the beacon's one function. */
const IMPLEMENTATION_SELECTOR = '0x5c60da1b'

/** EIP-1167's minimal proxy: these bytes, the implementation's 20, then the tail. */
const CLONE_HEAD = '363d3d373d3d3d363d73'
const CLONE_TAIL = '5af43d82803e903d91602b57fd5bf3'

/** The implementation an EIP-1167 minimal proxy's runtime code delegates to, or null for other code. */
export function cloneTarget(code: Hex): Address | null {
  const body = code.toLowerCase().replace(/^0x/, '')
  if (body.length !== (10 + 20 + 15) * 2 || !body.startsWith(CLONE_HEAD) || !body.endsWith(CLONE_TAIL)) return null
  return getAddress(`0x${body.slice(CLONE_HEAD.length, CLONE_HEAD.length + 40)}`)
}

/** The address in the low 20 bytes of a storage word, or null for an empty slot or a word that is no address. */
export function slotAddress(word: Hex | undefined | null): Address | null {
  if (!word) return null
  const body = word.replace(/^0x/, '').padStart(64, '0')
  if (body.length !== 64 || !/^0{24}[0-9a-fA-F]{40}$/.test(body) || /^0+$/.test(body)) return null
  return getAddress(`0x${body.slice(24)}`)
}

/**
 * The proxy standard `address` follows and the implementation it delegates to now, read from
 * the chain, or null when it is none: an EIP-1167 clone by its code; else the EIP-1967
 * implementation slot, the EIP-1967 beacon slot (the beacon's implementation()), and EIP-1822's
 * slot, in that order. `code` saves the read when the caller has it. An implementation is only
 * taken when it holds code, so a stray word in a slot names no proxy.
 */
export async function detectProxy(chain: Chain, address: string, code?: Hex): Promise<DetectedProxy | null> {
  const client = chain.publicClient
  const at = getAddress(address)
  const runtime = code ?? (await fromChain(() => client.getCode({ address: at }))) ?? '0x'
  if (runtime === '0x') return null
  const clone = cloneTarget(runtime)
  if (clone) return { kind: 'eip1167', implementation: clone }
  const [implementation, beacon, proxiable] = await fromChain(() =>
    Promise.all(([EIP1967_IMPLEMENTATION_SLOT, EIP1967_BEACON_SLOT, EIP1822_SLOT] as const).map((slot) => client.getStorageAt({ address: at, slot }))),
  )
  const hasCode = async (target: Address) => ((await fromChain(() => client.getCode({ address: target }))) ?? '0x') !== '0x'
  const direct = slotAddress(implementation)
  if (direct && (await hasCode(direct))) return { kind: 'eip1967', implementation: direct }
  const beaconAddress = slotAddress(beacon)
  if (beaconAddress) {
    const answer = await fromChain(() => client.call({ to: beaconAddress, data: IMPLEMENTATION_SELECTOR })).catch((error) => {
      if (error instanceof NodeUnreachableError) throw error
      return null
    })
    const target = slotAddress(answer?.data)
    if (target && (await hasCode(target))) return { kind: 'eip1967-beacon', implementation: target }
  }
  const uups = slotAddress(proxiable)
  if (uups && (await hasCode(uups))) return { kind: 'eip1822', implementation: uups }
  return null
}
