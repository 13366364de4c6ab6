import type { SpoolDb } from '../../src/spool/engine.ts'
import { emptyHealth, type SpoolHealth } from '../../src/spool/health.ts'
import type { Spool } from '../../src/spool/spool.ts'

/**
 * A spool that stands still, for a service asked over a spool no writer moves (a frozen copy, a
 * bench's filled file): `reader` over it, `health` as given (a fresh stack's unless told), one
 * version, no writer and so no verification records; `stop` runs `close`.
 */
export function fixedSpool(path: string, reader: SpoolDb, options: { health?: SpoolHealth; close?: () => void } = {}): Spool {
  const health = options.health ?? emptyHealth(78270)
  return {
    path,
    reader,
    database: null,
    health: () => health,
    version: () => 1,
    onHealth: () => () => true,
    onMeter: () => () => true,
    verifications: () => {
      throw new Error(`the spool at ${path} stands still: it takes no verification`)
    },
    fatal: new Promise(() => {}),
    stop: async () => options.close?.(),
  }
}
