import type { Abi } from 'viem'
// Imported, not read from disk, so the compiled binary carries them.
import ArcadeBank from '../../contracts/out/ArcadeBank.json' with { type: 'json' }
import CoinFlip from '../../contracts/out/CoinFlip.json' with { type: 'json' }

/**
 * The ABIs a room can decode logs with, by the name a `[[arcade.contracts]]` binding gives
 * (`abi`). The config takes any name; the arcade checks it against these when it is built.
 */
export const ARCADE_ABIS = {
  ArcadeBank: ArcadeBank.abi as Abi,
  CoinFlip: CoinFlip.abi as Abi,
} as const satisfies Record<string, Abi>

export type ArcadeAbiName = keyof typeof ARCADE_ABIS

export const ARCADE_ABI_NAMES = Object.keys(ARCADE_ABIS) as ArcadeAbiName[]

export function isArcadeAbiName(name: string): name is ArcadeAbiName {
  return Object.hasOwn(ARCADE_ABIS, name)
}

/** The names of the events an ABI declares, in declaration order. */
export function eventNames(abi: Abi): string[] {
  return abi.flatMap((item) => (item.type === 'event' ? [item.name] : []))
}
