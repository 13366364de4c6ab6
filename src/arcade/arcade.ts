import type { Address } from 'viem'
import { followMiniBlocks, type MiniBlockFollower } from '../chain/miniBlocks.ts'
import { createRpc } from '../chain/rpc.ts'
import type { ServiceContext } from '../context.ts'
import { eventNames } from './abis.ts'
import { Admission, type Refusal } from './admission.ts'
import { Delivery } from './delivery.ts'
import type { EjectionCause } from './frames.ts'
import { readiness, type Readiness } from './readiness.ts'
import { Relay } from './relay.ts'
import { Room } from './room.ts'
import { arcadeSettings, type ArcadeSettings } from './settings.ts'

/** How long a read of blocks and logs may take before it counts as failed and is retried. */
const RPC_TIMEOUT_MS = 5000

/** The arcade's counters since start, as /api/stats shows them. */
export class ArcadeStats {
  framesIn = 0
  framesOut = 0
  miniBlocksApplied = 0
  miniBlocksSkipped = 0
  readonly ejections: Record<EjectionCause, number> = { frameTooLarge: 0, rateLimited: 0, backlog: 0 }
  readonly refusals: Record<Refusal | 'unknownRoom', number> = { unknownRoom: 0, tooManySockets: 0, tooManyFromAddress: 0 }
}

/** The arcade without its HTTP face: rooms, the relay that feeds them, caps, counters, the node. */
export type Arcade = {
  settings: ArcadeSettings
  rooms: ReadonlyMap<string, Room>
  relay: Relay
  admission: Admission
  delivery: Delivery
  stats: ArcadeStats
  nodeConnected: () => boolean
  readiness: (now?: number) => Readiness
  /** Connects to the node and starts applying mini-blocks. */
  start: () => void
  /** Disconnects from the node. */
  stop: () => void
  /** Closes every room socket with `code` and `reason`. */
  closeSockets: (code: number, reason: string) => void
}

export function createArcade({ config, log, chain }: ServiceContext): Arcade {
  const settings = arcadeSettings(config)
  const stats = new ArcadeStats()
  const delivery = new Delivery(settings.limits.maxBacklogBytes, stats)
  const rooms = new Map<string, Room>()
  for (const name of settings.rooms) {
    const bound = settings.bindings.filter((binding) => binding.room === name)
    const events = [...new Set(bound.flatMap((binding) => eventNames(binding.abi)))]
    rooms.set(name, new Room(name, events, bound.map(({ address, abiName }) => ({ address, abi: abiName })), delivery))
  }
  const relay = new Relay(rooms, settings.bindings, stats)
  const admission = new Admission(settings.limits.maxSockets, settings.limits.maxSocketsPerAddress)
  const addresses = [...new Set(settings.bindings.map((binding) => binding.address))] as Address[]
  let follower: MiniBlockFollower | null = null

  const nodeConnected = () => follower?.connected() ?? false
  return {
    settings,
    rooms,
    relay,
    admission,
    delivery,
    stats,
    nodeConnected,
    readiness: (now = Date.now()) =>
      readiness(
        {
          connected: nodeConnected(),
          head: relay.head?.number ?? null,
          appliedAt: relay.appliedAt,
          timestampMs: relay.head ? relay.head.timestamp_us / 1000 : null,
        },
        settings.readyMaxAgeMs,
        now,
      ),
    start: () => {
      if (follower) return
      log.info({ service: 'arcade', ws: chain.wsUrl, contracts: addresses.length }, 'connecting to the node socket')
      follower = followMiniBlocks({
        wsUrl: chain.wsUrl,
        rpc: createRpc(chain.rpcUrl, { timeoutMs: RPC_TIMEOUT_MS }),
        addresses,
        onMiniBlock: (miniBlock, logs) => relay.apply(miniBlock, logs),
        onState: (connected) =>
          connected
            ? log.info({ service: 'arcade', ws: chain.wsUrl }, 'node socket up')
            : log.warn({ service: 'arcade', ws: chain.wsUrl }, 'node socket down; reconnecting'),
        onError: (error) => log.warn({ service: 'arcade', err: error }, 'reading a mini-block failed; retrying'),
        onSkip: ({ from, to }) => {
          stats.miniBlocksSkipped += to - from + 1
          log.warn({ service: 'arcade', from, to }, 'mini-blocks missed while the node socket was down were skipped')
        },
        catchUpBlocks: settings.catchUpBlocks,
        minDelayMs: settings.reconnect.minMs,
        maxDelayMs: settings.reconnect.maxMs,
      })
    },
    stop: () => {
      follower?.stop()
      follower = null
    },
    closeSockets: (code, reason) => {
      for (const room of rooms.values()) for (const member of room.members) member.socket.close(code, reason)
    },
  }
}
