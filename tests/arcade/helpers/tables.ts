import { encodeAbiParameters, keccak256, type Hex } from 'viem'

/**
 * The arcade's games as docs/arcade.md "Games" describes them, written again here without looking at the
 * contracts, so that a test can say what a seed must pay and a contract that strays fails.
 */

/** ArcadeRandom: the hash of the block that took the bet, mixed with the bet id (or round). */
export function seedOf(blockHash: Hex, id: bigint): bigint {
  return BigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [blockHash, id])))
}

/** The bank's skim of a stake: 0.5 %. */
export const skimOf = (stake: bigint) => (stake * 50n) / 10_000n

export const coinFlip = {
  payoutIfWon: (stake: bigint) => (stake * 2n * 9_900n) / 10_000n,
  landedHeads: (seed: bigint) => (seed & 1n) === 1n,
}

export const dice = {
  payoutIfWon: (stake: bigint, rollUnder: number) => (stake * 9_900n) / (BigInt(rollUnder - 1) * 100n),
  roll: (seed: bigint) => Number(seed % 100n) + 1,
}

export const crash = {
  payoutIfWon: (stake: bigint, cashOutX100: number) => (stake * BigInt(cashOutX100)) / 100n,
  point: (seed: bigint) => {
    const point = (99n << 32n) / ((1n << 32n) - (seed & 0xffffffffn))
    return point > 1_000_000n ? 1_000_000n : point
  },
}

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36])
/** Roulette bets: kind, number, the pockets that win, and what a win returns per unit staked. */
export const roulette = {
  bets: [
    ...Array.from({ length: 37 }, (_, number) => ({ kind: 0, number, pockets: [number], returns: 36n })),
    { kind: 1, number: 0, pockets: [...RED], returns: 2n },
    { kind: 2, number: 0, pockets: range(1, 36).filter((pocket) => !RED.has(pocket)), returns: 2n },
    { kind: 3, number: 0, pockets: range(1, 36).filter((pocket) => pocket % 2 === 1), returns: 2n },
    { kind: 4, number: 0, pockets: range(1, 36).filter((pocket) => pocket % 2 === 0), returns: 2n },
    { kind: 5, number: 0, pockets: range(1, 18), returns: 2n },
    { kind: 6, number: 0, pockets: range(19, 36), returns: 2n },
    ...[1, 2, 3].map((dozen) => ({ kind: 7, number: dozen, pockets: range(12 * dozen - 11, 12 * dozen), returns: 3n })),
    ...[1, 2, 3].map((column) => ({ kind: 8, number: column, pockets: range(1, 36).filter((pocket) => (pocket - 1) % 3 === column - 1), returns: 3n })),
  ],
  pocket: (seed: bigint) => Number(seed % 37n),
  bet(kind: number, number: number) {
    return roulette.bets.find((bet) => bet.kind === kind && bet.number === number)!
  },
}

/** Slots: symbols 0 cherry ... 5 seven; stops per symbol on each 32-stop reel; returns in hundredths. */
export const slots = {
  stopsPerSymbol: [10, 8, 6, 4, 3, 1],
  threeOfAKindX100: [600, 900, 1800, 3000, 6000, 25000],
  twoCherriesX100: 200,
  symbolAt(stop: number) {
    let end = 0
    for (const [symbol, stops] of slots.stopsPerSymbol.entries()) if (stop < (end += stops)) return symbol
    throw new Error(`no stop ${stop}`)
  },
  reels: (seed: bigint) => [0, 1, 2].map((reel) => slots.symbolAt(Number((seed >> BigInt(8 * reel)) & 0xffn) % 32)),
  multiplierX100(reels: number[]) {
    if (reels[0] === reels[1] && reels[1] === reels[2]) return slots.threeOfAKindX100[reels[0]!]!
    return reels.filter((symbol) => symbol === 0).length === 2 ? slots.twoCherriesX100 : 0
  },
}

export const plinko = {
  tablesX100: [
    [560, 210, 110, 100, 50, 100, 110, 210, 560],
    [2900, 400, 150, 30, 20, 30, 150, 400, 2900],
  ],
  path: (seed: bigint) => Number(seed & 0xffn),
  bucket: (path: number) => [...path.toString(2)].filter((bit) => bit === '1').length,
}

export const mines = {
  choose(n: number, k: number): bigint {
    let result = 1n
    for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1)
    return result
  },
  payoutIfWon: (stake: bigint, count: number, picked: number) => (stake * 9_900n * mines.choose(25, picked)) / (10_000n * mines.choose(25 - count, picked)),
  /** The mined tiles: a shuffle of the 25 tiles drawn from the seed, its first `count` taken. */
  laid(seed: bigint, count: number): number {
    const tiles = range(0, 24)
    let mask = 0
    for (let i = 0; i < count; i++) {
      const left = BigInt(25 - i)
      const j = i + Number(seed % left)
      seed /= left
      ;[tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!]
      mask |= 1 << tiles[i]!
    }
    return mask
  },
}

export const lottery = {
  ticketPrice: 10n ** 16n,
  roundBlocks: 10,
  prize: (tickets: bigint) => (tickets * 10n ** 16n * 9_800n) / 10_000n,
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index)
}
