import type { Abi } from 'viem'
// Imported, not read from disk, so the compiled binary carries them.
import ArcadeBank from '../../contracts/out/ArcadeBank.json' with { type: 'json' }
import CoinFlip from '../../contracts/out/CoinFlip.json' with { type: 'json' }
import type { ArcadeAbiName } from './abiNames.ts'

/** The ABI behind each name a `[[arcade.contracts]]` binding may give. */
export const ARCADE_ABIS: Record<ArcadeAbiName, Abi> = {
  ArcadeBank: ArcadeBank.abi as Abi,
  CoinFlip: CoinFlip.abi as Abi,
}

/** The names of the events an ABI declares, in declaration order. */
export function eventNames(abi: Abi): string[] {
  return abi.flatMap((item) => (item.type === 'event' ? [item.name] : []))
}
