import type { MiniBlock, RpcLog } from '../chain/miniBlocks.ts'
import type { ArcadeStats } from './arcade.ts'
import { decodeLog, type DecodedLog } from './decodeLog.ts'
import { frames, type EventPayload, type HeadPayload } from './frames.ts'
import type { Room } from './room.ts'
import type { Binding } from './settings.ts'

/**
 * `relayed` is every event frame that went out, with the room it went to; `startedAt` is
 * performance.now() when the mini-block began to be applied, before any frame went out.
 */
export type AppliedListener = (head: HeadPayload, relayed: Array<{ room: string; event: EventPayload }>, startedAt: number) => void

/**
 * Turns applied mini-blocks into frames: a `head` frame to every room, then an `event` frame per
 * log of a contract bound to a room, decoded with the bound ABI, to that room. An event of a
 * contract every game shares that names its game (the bank's `Staked` of a dice roll) goes only
 * to the rooms that bind that game too. Remembers the head and when it was applied, which is what
 * readiness is judged on.
 */
export class Relay {
  head: HeadPayload | null = null
  /** Date.now() when the last mini-block was applied. */
  appliedAt: number | null = null
  private readonly byAddress = new Map<string, Binding[]>()
  /** Each room's bound addresses, lower-cased. */
  private readonly roomAddresses = new Map<string, Set<string>>()
  private readonly listeners = new Set<AppliedListener>()

  constructor(
    private readonly rooms: ReadonlyMap<string, Room>,
    bindings: readonly Binding[],
    private readonly stats: ArcadeStats,
  ) {
    for (const binding of bindings) {
      const key = binding.address.toLowerCase()
      this.byAddress.set(key, [...(this.byAddress.get(key) ?? []), binding])
      const bound = this.roomAddresses.get(binding.room) ?? new Set<string>()
      this.roomAddresses.set(binding.room, bound.add(key))
    }
  }

  apply(miniBlock: MiniBlock, logs: readonly RpcLog[]): void {
    const startedAt = performance.now()
    const head: HeadPayload = { number: miniBlock.number, block: miniBlock.block, timestamp_us: miniBlock.timestampUs, txCount: miniBlock.txCount }
    this.head = head
    this.appliedAt = Date.now()
    this.stats.miniBlocksApplied++
    const headFrame = frames.head(head)
    for (const room of this.rooms.values()) room.broadcast(headFrame)

    const relayed: Array<{ room: string; event: EventPayload }> = []
    for (const log of logs) {
      if (log.removed) continue
      // A contract bound to several rooms (the bank) has its log decoded once.
      const decodedWith = new Map<Binding['abi'], DecodedLog | null>()
      for (const binding of this.byAddress.get(log.address.toLowerCase()) ?? []) {
        if (!decodedWith.has(binding.abi)) decodedWith.set(binding.abi, decodeLog(binding.abi, log))
        const decoded = decodedWith.get(binding.abi)
        if (!decoded || !this.concernsRoom(binding, decoded.args)) continue
        const event: EventPayload = {
          contract: binding.address,
          name: decoded.name,
          args: decoded.args,
          txHash: log.transactionHash,
          logIndex: Number(log.logIndex),
          block: miniBlock.block,
          miniBlock: miniBlock.number,
        }
        this.rooms.get(binding.room)?.relayEvent(event)
        relayed.push({ room: binding.room, event })
      }
    }
    for (const listener of this.listeners) listener(head, relayed, startedAt)
  }

  /** False for a shared contract's event about a game the binding's room does not bind. */
  private concernsRoom(binding: Binding, args: EventPayload['args']): boolean {
    if (binding.gameArgument === null) return true
    const game = args[binding.gameArgument]
    if (typeof game !== 'string') return true
    return this.roomAddresses.get(binding.room)?.has(game.toLowerCase()) ?? false
  }

  /** Called after each applied mini-block, once its frames are sent; returns the unsubscribe. */
  onApplied(listener: AppliedListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
