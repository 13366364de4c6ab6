import type { Abi } from 'viem'
// Imported, not read from disk, so the compiled binary carries them.
import ArcadeBank from '../../contracts/out/ArcadeBank.json' with { type: 'json' }
import CoinFlip from '../../contracts/out/CoinFlip.json' with { type: 'json' }
import Crash from '../../contracts/out/Crash.json' with { type: 'json' }
import Dice from '../../contracts/out/Dice.json' with { type: 'json' }
import Lottery from '../../contracts/out/Lottery.json' with { type: 'json' }
import Mines from '../../contracts/out/Mines.json' with { type: 'json' }
import Plinko from '../../contracts/out/Plinko.json' with { type: 'json' }
import Roulette from '../../contracts/out/Roulette.json' with { type: 'json' }
import Slots from '../../contracts/out/Slots.json' with { type: 'json' }

/**
 * The ABIs a room can decode logs with, by the name a `[[arcade.contracts]]` binding gives
 * (`abi`). The config takes any name; the arcade checks it against these when it is built.
 */
export const ARCADE_ABIS = {
  ArcadeBank: ArcadeBank.abi as Abi,
  CoinFlip: CoinFlip.abi as Abi,
  Dice: Dice.abi as Abi,
  Crash: Crash.abi as Abi,
  Roulette: Roulette.abi as Abi,
  Slots: Slots.abi as Abi,
  Plinko: Plinko.abi as Abi,
  Mines: Mines.abi as Abi,
  Lottery: Lottery.abi as Abi,
} as const satisfies Record<string, Abi>

export type ArcadeAbiName = keyof typeof ARCADE_ABIS

export const ARCADE_ABI_NAMES = Object.keys(ARCADE_ABIS) as ArcadeAbiName[]

export function isArcadeAbiName(name: string): name is ArcadeAbiName {
  return Object.hasOwn(ARCADE_ABIS, name)
}

/**
 * ABIs of contracts that every game shares, with the argument by which their events name the
 * game they are about (the bank's `Staked`, `Settled`, `Skimmed`, `GameEnabled`). Such an event
 * goes only to the rooms that also bind that game; the shared contract's other events (deposits,
 * withdrawals, the house's funding) go to every room that binds it.
 */
export const GAME_ARGUMENT: Partial<Record<ArcadeAbiName, string>> = { ArcadeBank: 'game' }

/** The names of the events an ABI declares, in declaration order. */
export function eventNames(abi: Abi): string[] {
  return abi.flatMap((item) => (item.type === 'event' ? [item.name] : []))
}
