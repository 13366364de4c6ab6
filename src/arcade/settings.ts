import { getAddress, type Abi, type Address } from 'viem'
import { ConfigError, type Config } from '../config/load.ts'
import { ARCADE_ABI_NAMES, ARCADE_ABIS, GAME_ARGUMENT, isArcadeAbiName, type ArcadeAbiName } from './abis.ts'

/**
 * A contract whose logs a room relays, with the ABI they are decoded with. `gameArgument` names
 * the argument by which a contract shared by every game says which game an event is about
 * (abis.ts, GAME_ARGUMENT); null for a game's own contract.
 */
export type Binding = { room: string; address: Address; abiName: ArcadeAbiName; abi: Abi; gameArgument: string | null }

export type ArcadeLimits = {
  maxSockets: number
  maxSocketsPerAddress: number
  maxFrameBytes: number
  messagesPerSecond: number
  messageBurst: number
  maxBacklogBytes: number
}

export type ArcadeSettings = {
  rooms: string[]
  bindings: Binding[]
  limits: ArcadeLimits
  readyMaxAgeMs: number
  catchUpBlocks: number
  reconnect: { minMs: number; maxMs: number }
}

/**
 * The arcade's part of the config, checked beyond what the schema can say: every binding names a
 * room that exists and an ABI the arcade knows (the config knows no service, so it takes any
 * name). A problem is a ConfigError, reported as the config's own are, and the services are
 * built before any port opens, so the start stops with nothing listening.
 */
export function arcadeSettings(config: Config): ArcadeSettings {
  const { arcade } = config
  const problems: string[] = []
  const bindings = arcade.contracts.flatMap((binding, index): Binding[] => {
    if (!arcade.rooms.includes(binding.room)) {
      problems.push(`arcade.contracts[${index}].room = ${JSON.stringify(binding.room)}: expected one of the rooms in arcade.rooms (${arcade.rooms.join(', ')})`)
    }
    if (!isArcadeAbiName(binding.abi)) {
      const known = ARCADE_ABI_NAMES.map((name) => JSON.stringify(name)).join(', ')
      problems.push(`arcade.contracts[${index}].abi = ${JSON.stringify(binding.abi)}: expected the ABI to decode its logs with, one of ${known}`)
      return []
    }
    const abiName = binding.abi
    return [{ room: binding.room, address: getAddress(binding.address), abiName, abi: ARCADE_ABIS[abiName], gameArgument: GAME_ARGUMENT[abiName] ?? null }]
  })
  if (arcade.reconnectMinMs > arcade.reconnectMaxMs) {
    problems.push(`arcade.reconnectMinMs = ${arcade.reconnectMinMs}: expected at most arcade.reconnectMaxMs (${arcade.reconnectMaxMs})`)
  }
  if (problems.length > 0) throw new ConfigError(config.file ?? 'config', problems)
  return {
    rooms: [...arcade.rooms],
    bindings,
    limits: {
      maxSockets: arcade.maxSockets,
      maxSocketsPerAddress: arcade.maxSocketsPerAddress,
      maxFrameBytes: arcade.maxFrameBytes,
      messagesPerSecond: arcade.messagesPerSecond,
      messageBurst: arcade.messageBurst,
      maxBacklogBytes: arcade.maxBacklogBytes,
    },
    readyMaxAgeMs: arcade.readyMaxAgeSeconds * 1000,
    catchUpBlocks: arcade.catchUpBlocks,
    reconnect: { minMs: arcade.reconnectMinMs, maxMs: arcade.reconnectMaxMs },
  }
}
