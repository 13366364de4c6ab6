import { keccak256 } from 'viem'

/**
 * The 2048-bit bloom filter of a set of logs, as a block or receipt carries it (the yellow
 * paper's M3:2048): for each log's address and each of its topics, three bits chosen by the
 * first three pairs of bytes of its keccak hash, each taken mod 2048.
 */
export function logsBloom(logs: Array<{ address: Uint8Array; topics: Uint8Array[] }>): `0x${string}` {
  const bloom = new Uint8Array(256)
  const add = (bytes: Uint8Array) => {
    const hash = keccak256(bytes, 'bytes')
    for (let pair = 0; pair < 6; pair += 2) {
      const bit = ((hash[pair]! << 8) | hash[pair + 1]!) & 2047
      bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
    }
  }
  for (const log of logs) {
    add(log.address)
    for (const topic of log.topics) add(topic)
  }
  return `0x${bloom.toHex()}`
}
