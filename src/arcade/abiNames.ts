/**
 * The ABIs a room can decode logs with, by name (`abi` in `[[arcade.contracts]]`). The config
 * schema takes its list from here and src/arcade/abis.ts maps each name to its ABI.
 */
export const ARCADE_ABI_NAMES = ['ArcadeBank', 'CoinFlip'] as const

export type ArcadeAbiName = (typeof ARCADE_ABI_NAMES)[number]
