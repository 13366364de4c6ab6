import type { EjectionCause } from './protocol.ts'
import type { Refusal } from './admission.ts'

/** The arcade's counters since start, as /api/stats shows them. */
export class ArcadeStats {
  framesIn = 0
  framesOut = 0
  miniBlocksApplied = 0
  miniBlocksSkipped = 0
  readonly ejections: Record<EjectionCause, number> = { frameTooLarge: 0, rateLimited: 0, backlog: 0 }
  readonly refusals: Record<Refusal | 'unknownRoom', number> = { unknownRoom: 0, tooManySockets: 0, tooManyFromAddress: 0 }
}
