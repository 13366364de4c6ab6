import { Gauge } from 'prom-client'
import { counterOver, type ServiceMetrics } from '../http/metrics.ts'
import type { Arcade } from './arcade.ts'

/**
 * The arcade's own metrics, read at each scrape from the counters it keeps for /api/stats (so a
 * frame costs nothing more than it did): sockets by room, frames in and out, ejections by cause,
 * refused upgrades by reason, mini-blocks applied and skipped, the node socket and readiness.
 */
export function registerArcadeMetrics(metrics: ServiceMetrics, arcade: Arcade): void {
  const { registry } = metrics
  const registers = [registry]
  const { stats } = arcade
  new Gauge({
    name: 'stack_arcade_sockets',
    help: 'Sockets open now, by room.',
    labelNames: ['room'],
    registers,
    collect() {
      for (const room of arcade.rooms.values()) this.labels(room.name).set(room.size)
    },
  })
  counterOver(registry, { name: 'stack_arcade_frames_total', help: 'Frames received from clients (in) and sent to them (out).', labelNames: ['direction'] }, () => [
    [['in'], stats.framesIn],
    [['out'], stats.framesOut],
  ])
  counterOver(registry, { name: 'stack_arcade_ejections_total', help: 'Sockets cut by cause: frameTooLarge, rateLimited, backlog.', labelNames: ['cause'] }, () =>
    Object.entries(stats.ejections).map(([cause, count]) => [[cause], count]),
  )
  counterOver(registry, { name: 'stack_arcade_refusals_total', help: 'Upgrades refused by reason: unknownRoom, tooManySockets, tooManyFromAddress.', labelNames: ['reason'] }, () =>
    Object.entries(stats.refusals).map(([reason, count]) => [[reason], count]),
  )
  counterOver(registry, { name: 'stack_arcade_mini_blocks_total', help: 'Mini-blocks applied, and skipped after the node socket was down too long.', labelNames: ['state'] }, () => [
    [['applied'], stats.miniBlocksApplied],
    [['skipped'], stats.miniBlocksSkipped],
  ])
  new Gauge({ name: 'stack_arcade_node_connected', help: '1 while the node socket is open, else 0.', registers, collect() { this.set(arcade.nodeConnected() ? 1 : 0) } })
  new Gauge({ name: 'stack_arcade_ready', help: '1 while /api/ready answers 200, else 0.', registers, collect() { this.set(arcade.readiness().ready ? 1 : 0) } })
  new Gauge({ name: 'stack_arcade_head_mini_block', help: 'The last mini-block applied (-1 before the first).', registers, collect() { this.set(arcade.relay.head?.number ?? -1) } })
}
