import type { Address, Hex, PublicClient } from 'viem'
import { fromChain } from '../chain/client.ts'
import { checksum } from '../eth/address.ts'

// Where a proxy keeps the address its calls go to, read from the chain as it is now:
// - EIP-1967: the implementation slot, else the beacon slot (the beacon's `implementation()`);
// - EIP-1822 (UUPS before EIP-1967): the slot keccak256("PROXIABLE");
// - EIP-1167: the minimal proxy's code, which holds the address itself.

const EIP1967_IMPLEMENTATION = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
const EIP1967_BEACON = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50'
const EIP1822_PROXIABLE = '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7'
/** `implementation()` */
const IMPLEMENTATION_SELECTOR = '0x5c60da1b'
const MINIMAL_PROXY = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/

export type ProxyKind = 'eip1967' | 'eip1967-beacon' | 'eip1822' | 'eip1167'

/** The proxy at `address` and where it points, or null when its slots and code name no contract. */
export async function readProxy(client: PublicClient, address: Address): Promise<{ kind: ProxyKind; implementation: Address } | null> {
  const code = (await fromChain(() => client.getCode({ address }))) ?? '0x'
  const minimal = MINIMAL_PROXY.exec(code.toLowerCase())
  if (minimal) return { kind: 'eip1167', implementation: checksum(`0x${minimal[1]}`) }
  const slot = async (at: Hex) => addressIn(await fromChain(() => client.getStorageAt({ address, slot: at })))
  const implementation = await slot(EIP1967_IMPLEMENTATION)
  if (implementation) return { kind: 'eip1967', implementation }
  const beacon = await slot(EIP1967_BEACON)
  if (beacon) {
    const answer = await fromChain(() => client.call({ to: beacon, data: IMPLEMENTATION_SELECTOR })).catch(() => null)
    const target = addressIn(answer?.data)
    if (target) return { kind: 'eip1967-beacon', implementation: target }
  }
  const proxiable = await slot(EIP1822_PROXIABLE)
  if (proxiable) return { kind: 'eip1822', implementation: proxiable }
  return null
}

/** The address in the low 20 bytes of a 32-byte word, or null for zero, nothing, or a word with its high bytes set. */
function addressIn(word: Hex | undefined): Address | null {
  if (!word || word.length !== 66) return null
  const high = word.slice(2, 26)
  const low = word.slice(26)
  if (/[^0]/.test(high) || !/[^0]/.test(low)) return null
  return checksum(`0x${low}`)
}
