// @ts-check
/**
 * Keccak-256 and EIP-55 address checksums, with no dependency, so that the validator runs on a
 * bare Node.js or Bun.
 *
 * This is the original Keccak submission that Ethereum uses (padding byte 0x01), not the
 * standardised SHA3-256 (padding byte 0x06): the two give different digests.
 *
 * The 1600-bit state is kept as 25 lanes of two 32-bit halves (`lo` at even, `hi` at odd
 * indexes), because 32-bit integer arithmetic is fast in every JavaScript engine and BigInt is not.
 */

const RATE_BYTES = 136 // 1088 bits: 1600 minus twice the 256-bit output
const ROUNDS = 24

/** Rotation offset of each lane (index x + 5y), from the specification's (x, y) walk. */
const ROTATION = new Array(25).fill(0)
/** Destination lane of each lane under the pi step: (x, y) goes to (y, 2x + 3y). */
const PI_TARGET = new Array(25).fill(0)
/** Round constants as [lo, hi] pairs. */
const ROUND_CONSTANTS = new Uint32Array(ROUNDS * 2)

for (let x = 0; x < 5; x++) {
  for (let y = 0; y < 5; y++) PI_TARGET[x + 5 * y] = y + 5 * ((2 * x + 3 * y) % 5)
}
for (let t = 0, x = 1, y = 0; t < 24; t++) {
  ROTATION[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64
  ;[x, y] = [y, (2 * x + 3 * y) % 5]
}
for (let round = 0; round < ROUNDS; round++) {
  for (let j = 0; j <= 6; j++) {
    if (!roundConstantBit(j + 7 * round)) continue
    const bit = 2 ** j - 1
    if (bit < 32) ROUND_CONSTANTS[round * 2] |= 1 << bit
    else ROUND_CONSTANTS[round * 2 + 1] |= 1 << (bit - 32)
  }
}

/**
 * The output bit t of the specification's linear feedback shift register (x^8+x^6+x^5+x^4+1).
 * @param {number} t
 */
function roundConstantBit(t) {
  let r = 1
  for (let i = 0; i < t % 255; i++) {
    r <<= 1
    if (r & 0x100) r ^= 0x171
  }
  return r & 1
}

/**
 * Writes lane `lane` of `from`, rotated left by `n` bits, into lane `to` of `into`.
 * @param {Uint32Array} from @param {number} lane @param {number} n
 * @param {Uint32Array} into @param {number} to
 */
function rotateLane(from, lane, n, into, to) {
  const lo = from[lane * 2]
  const hi = from[lane * 2 + 1]
  if (n === 0) {
    into[to * 2] = lo
    into[to * 2 + 1] = hi
  } else if (n < 32) {
    into[to * 2] = (lo << n) | (hi >>> (32 - n))
    into[to * 2 + 1] = (hi << n) | (lo >>> (32 - n))
  } else if (n === 32) {
    into[to * 2] = hi
    into[to * 2 + 1] = lo
  } else {
    const m = n - 32
    into[to * 2] = (hi << m) | (lo >>> (32 - m))
    into[to * 2 + 1] = (lo << m) | (hi >>> (32 - m))
  }
}

const columns = new Uint32Array(10)
const mixed = new Uint32Array(10)
const moved = new Uint32Array(50)

/** @param {Uint32Array} state the 25 lanes, permuted in place */
function keccakF1600(state) {
  for (let round = 0; round < ROUNDS; round++) {
    // theta: xor every lane with the parities of two neighbouring columns
    for (let x = 0; x < 5; x++) {
      for (let half = 0; half < 2; half++) {
        let parity = 0
        for (let y = 0; y < 5; y++) parity ^= state[(x + 5 * y) * 2 + half]
        columns[x * 2 + half] = parity
      }
    }
    for (let x = 0; x < 5; x++) {
      rotateLane(columns, (x + 1) % 5, 1, mixed, x)
      const left = (x + 4) % 5
      const dLo = (mixed[x * 2]) ^ (columns[left * 2])
      const dHi = (mixed[x * 2 + 1]) ^ (columns[left * 2 + 1])
      for (let y = 0; y < 5; y++) {
        state[(x + 5 * y) * 2] ^= dLo
        state[(x + 5 * y) * 2 + 1] ^= dHi
      }
    }
    // rho and pi: rotate every lane and move it to its new position
    for (let lane = 0; lane < 25; lane++) rotateLane(state, lane, ROTATION[lane], moved, PI_TARGET[lane])
    // chi: the only non-linear step, along each row
    for (let y = 0; y < 5; y++) {
      for (let x = 0; x < 5; x++) {
        const a = (x + 5 * y) * 2
        const b = (((x + 1) % 5) + 5 * y) * 2
        const c = (((x + 2) % 5) + 5 * y) * 2
        state[a] = (moved[a]) ^ (~(moved[b]) & (moved[c]))
        state[a + 1] = (moved[a + 1]) ^ (~(moved[b + 1]) & (moved[c + 1]))
      }
    }
    // iota: break the symmetry between rounds
    state[0] ^= ROUND_CONSTANTS[round * 2]
    state[1] ^= ROUND_CONSTANTS[round * 2 + 1]
  }
}

/**
 * Keccak-256 digest of `bytes`, as 0x-prefixed lower-case hex (like viem's `keccak256`).
 * Text must be encoded first, e.g. `keccak256(new TextEncoder().encode(text))`.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function keccak256(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('keccak256 expects a Uint8Array')
  // Pad with 0x01 ... 0x80 to a whole number of blocks; both land in one byte when only one fits.
  const padded = new Uint8Array((Math.floor(bytes.length / RATE_BYTES) + 1) * RATE_BYTES)
  padded.set(bytes)
  padded[bytes.length] ^= 0x01
  padded[padded.length - 1] ^= 0x80

  const state = new Uint32Array(50)
  const view = new DataView(padded.buffer)
  for (let block = 0; block < padded.length; block += RATE_BYTES) {
    for (let lane = 0; lane < RATE_BYTES / 8; lane++) {
      state[lane * 2] ^= view.getUint32(block + lane * 8, true)
      state[lane * 2 + 1] ^= view.getUint32(block + lane * 8 + 4, true)
    }
    keccakF1600(state)
  }

  // The digest is the first 32 bytes of the state, each lane read little-endian.
  let hex = '0x'
  for (let i = 0; i < 8; i++) {
    const word = state[i]
    for (let shift = 0; shift < 32; shift += 8) hex += ((word >>> shift) & 0xff).toString(16).padStart(2, '0')
  }
  return hex
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * Whether `value` is 0x followed by 40 hex digits, in any letter case.
 * @param {unknown} value
 * @returns {value is string}
 */
export function isAddress(value) {
  return typeof value === 'string' && ADDRESS.test(value)
}

/**
 * The EIP-55 mixed-case form of an address: a hex letter is upper case when the matching nibble
 * of keccak256(lower-case hex, as ASCII) is 8 or more.
 * @param {string} address 0x followed by 40 hex digits, any case
 * @returns {string}
 */
export function toChecksumAddress(address) {
  if (!isAddress(address)) throw new TypeError(`not an address: ${String(address)}`)
  const lower = address.slice(2).toLowerCase()
  const hash = keccak256(new TextEncoder().encode(lower)).slice(2)
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i]
  }
  return out
}
