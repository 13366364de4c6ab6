import { getAddress, type Address, type Hex } from 'viem'

// Checksumming hashes the address: a list of 500 swaps would hash 1500 addresses per request,
// most of them the same few pairs and routers. Remember them (bounded: addresses seen on a
// busy chain are many, and memory is not for ever).
const checksummed = new Map<string, Address>()
const MAX_REMEMBERED = 50_000

/** A 20-byte BLOB as an EIP-55 address. */
export function addressOf(bytes: Uint8Array): Address {
  const hex = Buffer.from(bytes).toString('hex')
  let address = checksummed.get(hex)
  if (!address) {
    if (checksummed.size >= MAX_REMEMBERED) checksummed.clear()
    address = getAddress(`0x${hex}`)
    checksummed.set(hex, address)
  }
  return address
}

export function nullableAddress(bytes: Uint8Array | null): Address | null {
  return bytes ? addressOf(bytes) : null
}

/** A 32-byte BLOB (transaction hash) as lower-case 0x-hex. */
export function hashOf(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`
}
