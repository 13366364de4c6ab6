import type { Database } from 'bun:sqlite'
import { blockHash, blocksAfter, creationTraces, txPartiesAfter } from '../spool/read.ts'
import type { CallFrame } from '../spool/traces.ts'

export type AccountCounts = { sent: number; received: number; self: number }
export type Creation = { creator: string; txId: number }

/** Rows read per pass, so that catching up on a large spool never holds the event loop long. */
const BLOCKS_PER_PASS = 20_000
const TXS_PER_PASS = 50_000
const TRACE_BLOCKS_PER_PASS = 5_000

const key = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * Counters over the whole spool that no single query can give cheaply: totals of blocks,
 * transactions and gas, per-account transaction counts (the accounts list is ordered by them),
 * and who created each contract, including contracts created inside a call (a factory's pairs),
 * which only the call traces show. Kept in memory and brought up to date incrementally from the
 * spool's increasing keys; a reorganisation (the last block seen has changed) starts it over.
 * Addresses are lower-case hex without 0x.
 */
export class ChainTally {
  blocks = 0
  transactions = 0
  gasUsed = 0
  readonly accounts = new Map<string, AccountCounts>()
  readonly creations = new Map<string, Creation>()
  readonly createdBy = new Map<string, string[]>()
  /** Accounts that have sent a transaction. */
  wallets = 0
  /** Bumped whenever anything changed, so derived views know when to rebuild. */
  version = 0

  private lastBlock = -1
  private lastHash: Buffer | null = null
  private lastTx = -1
  private tracedBlock = -1

  constructor(private readonly db: Database) {}

  /**
   * Reads what the spool added since the last pass; true when it has caught up. Cheap when
   * nothing is new (three indexed lookups), so the routes that read the tally call it first.
   */
  catchUp(): boolean {
    if (this.lastBlock >= 0 && !this.stillOnChain()) this.reset()
    const blocks = blocksAfter(this.db, this.lastBlock, BLOCKS_PER_PASS)
    for (const block of blocks) {
      this.blocks++
      this.gasUsed += block.gasUsed
    }
    const last = blocks.at(-1)
    if (last) {
      this.lastBlock = last.number
      this.lastHash = Buffer.from(last.hash)
    }
    const txsDone = this.readTransactions()
    const tracesDone = this.readTraces()
    if (blocks.length > 0) this.version++
    return blocks.length < BLOCKS_PER_PASS && txsDone && tracesDone
  }

  /** Whether the block last counted is still the spool's block at that height. */
  private stillOnChain(): boolean {
    const hash = blockHash(this.db, this.lastBlock)
    return hash !== null && this.lastHash !== null && Buffer.compare(Buffer.from(hash), this.lastHash) === 0
  }

  private reset(): void {
    this.blocks = this.transactions = this.gasUsed = this.wallets = 0
    this.accounts.clear()
    this.creations.clear()
    this.createdBy.clear()
    this.lastBlock = this.lastTx = this.tracedBlock = -1
    this.lastHash = null
    this.version++
  }

  private account(address: string): AccountCounts {
    let counts = this.accounts.get(address)
    if (!counts) {
      counts = { sent: 0, received: 0, self: 0 }
      this.accounts.set(address, counts)
    }
    return counts
  }

  private created(address: string, creator: string, id: number): void {
    if (this.creations.has(address)) return
    this.creations.set(address, { creator, txId: id })
    const list = this.createdBy.get(creator)
    if (list) list.push(address)
    else this.createdBy.set(creator, [address])
  }

  private readTransactions(): boolean {
    const rows = txPartiesAfter(this.db, this.lastTx, this.lastBlock + 1, TXS_PER_PASS)
    for (const row of rows) {
      const from = key(row.from)
      const sender = this.account(from)
      if (sender.sent === 0) this.wallets++
      sender.sent++
      const to = row.to ? key(row.to) : row.created ? key(row.created) : null
      if (to !== null) {
        this.account(to).received++
        if (to === from) sender.self++
      }
      if (row.created) this.created(key(row.created), from, row.id)
      this.transactions++
      this.lastTx = row.id
    }
    if (rows.length > 0) this.version++
    return rows.length < TXS_PER_PASS
  }

  /** Contracts created inside calls, from the traces of blocks the pass has counted. */
  private readTraces(): boolean {
    const upTo = Math.min(this.lastBlock, this.tracedBlock + TRACE_BLOCKS_PER_PASS)
    if (upTo <= this.tracedBlock) return true
    const rows = creationTraces(this.db, this.tracedBlock + 1, upTo)
    for (const row of rows) {
      const walk = (frame: CallFrame) => {
        if (frame.type.startsWith('CREATE') && !frame.error && ADDRESS.test(frame.to ?? '') && ADDRESS.test(frame.from)) {
          this.created(frame.to!.slice(2).toLowerCase(), frame.from.slice(2).toLowerCase(), row.txId)
        }
        for (const call of frame.calls) walk(call)
      }
      walk(row.trace)
    }
    if (rows.length > 0) this.version++
    this.tracedBlock = upTo
    return upTo >= this.lastBlock
  }
}
