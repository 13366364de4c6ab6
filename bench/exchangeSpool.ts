// The exchange bench's spool: synthetic blocks of exchange activity with real event encodings
// (the dev chain's factories and tokens) and unrelated Transfer logs, written straight into a
// spool's tables. bench:index derives and serves it.
import type { Database } from 'bun:sqlite'
import { clEvents, v2Events } from '../src/exchange/events.ts'
import { txId } from '../src/spool/codec.ts'
import { SET_META_SQL } from '../src/spool/meta.ts'

// Event data, word by word, as a contract would have encoded it.
const word = (value: bigint | number) => {
  const big = BigInt(value)
  return Buffer.from((big < 0n ? (1n << 256n) + big : big).toString(16).padStart(64, '0'), 'hex')
}
const addressWord = (hex: string) => Buffer.from(hex.slice(2).toLowerCase().padStart(64, '0'), 'hex')
const topic = (selector: string) => Buffer.from(selector.slice(2), 'hex')
const fakeAddress = (kind: number, index: number) => `0x${kind.toString(16).padStart(2, '0')}${index.toString(16).padStart(38, '0')}`

type FakeLog = { address: string; topics: Buffer[]; data: Buffer }

/** Fills a spool with `blocks` blocks of exchange activity and noise over `pairCount` pairs; returns the log count. */
export function fillSpool(db: Database, contracts: { v2Factory: string; v3Factory: string; tokens: string[] }, blocks: number, pairCount: number): number {
  const insertBlock = db.prepare('INSERT INTO blocks (number, hash, parent_hash, timestamp, gas_used, gas_limit, tx_count) VALUES (?, ?, ?, ?, 0, 30000000, ?)')
  const insertTx = db.prepare(
    `INSERT INTO txs (id, hash, block_number, tx_index, from_addr, to_addr, value, nonce, type, gas, input, status, gas_used, log_count)
     VALUES (?, ?, ?, ?, ?, ?, '0', 0, 2, 21000, x'', 1, 21000, ?)`,
  )
  const insertLog = db.prepare('INSERT INTO logs (tx_id, log_index, block_number, address, topic0, topic1, topic2, topic3, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
  const hash = (block: number, index: number) => Buffer.from(`${block.toString(16).padStart(40, '0')}${index.toString(16).padStart(24, '0')}`, 'hex')
  const senders = Array.from({ length: 50 }, (_, index) => fakeAddress(0xee, index))
  const pairs = Array.from({ length: pairCount }, (_, index) => fakeAddress(0xaa, index))
  const pools = Array.from({ length: 10 }, (_, index) => fakeAddress(0xbb, index))
  const transfer = topic('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
  // The dev chain's tokens and some that exist only in logs (their metadata reads answer null):
  // one pair and one pool of wrapped ether and dollars, as on a real exchange, the rest mixed.
  const tokens = [...contracts.tokens, ...Array.from({ length: 8 }, (_, index) => fakeAddress(0xcc, index))]
  const tokensOf = (index: number) => {
    const [a, b] = index === 0 ? [tokens[0]!, tokens[1]!] : [tokens[index % tokens.length]!, tokens[(index * 3 + 1) % tokens.length]!]
    const [first, second] = a === b ? [a, tokens[(index + 5) % tokens.length]!] : [a, b]
    return first.toLowerCase() < second.toLowerCase() ? [first, second] : [second, first]
  }
  let logs = 0
  let seed = 7
  const random = (below: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % below)
  const positions: Array<{ pool: string; owner: string; lower: number; upper: number; liquidity: bigint }> = []
  const ticks = pools.map(() => 0)

  db.transaction(() => {
    for (let block = 0; block < blocks; block++) {
      const txs: FakeLog[][] = []
      if (block === 0) {
        txs.push([10, 60, 200].map((spacing, index) => ({ address: contracts.v3Factory, topics: [topic(clEvents.FeeAmountEnabled.selector), word([500, 3000, 10000][index]!), word(spacing)], data: Buffer.alloc(0) })))
        txs.push(pairs.map((pair, index) => {
          const [token0, token1] = tokensOf(index)
          return { address: contracts.v2Factory, topics: [topic(v2Events.PairCreated.selector), addressWord(token0!), addressWord(token1!)], data: Buffer.concat([addressWord(pair), word(index + 1)]) }
        }))
        txs.push(pools.flatMap((pool, index) => [
          { address: contracts.v3Factory, topics: [topic(clEvents.PoolCreated.selector), ...tokensOf(index).map((token) => addressWord(token!)), word(3000)], data: Buffer.concat([word(60), addressWord(pool)]) },
          { address: pool, topics: [topic(clEvents.Initialize.selector)], data: Buffer.concat([word(1n << 96n), word(0)]) },
        ]))
      }
      for (let index = 0; index < 20; index++) {
        const sender = senders[random(senders.length)]!
        const noise = { address: tokens[0]!, topics: [transfer, addressWord(sender), addressWord(senders[0]!)], data: word(1000) }
        const slot = index % 10
        if (slot < 4) {
          // A constant-product swap: the token transfer in, the pair's Sync, its Swap.
          const pair = pairs[random(pairs.length)]!
          const amount = BigInt(1 + random(1_000_000)) * 10n ** 12n
          txs.push([
            noise,
            { address: pair, topics: [topic(v2Events.Sync.selector)], data: Buffer.concat([word(10n ** 24n + amount), word(10n ** 21n - amount / 1000n)]) },
            { address: pair, topics: [topic(v2Events.Swap.selector), addressWord(sender), addressWord(sender)], data: Buffer.concat([word(amount), word(0), word(0), word(amount / 1000n)]) },
          ])
        } else if (slot < 8) {
          // A concentrated swap with the pool's state after it; two transfers beside it.
          const pool = random(pools.length)
          ticks[pool] = ticks[pool]! + random(121) - 60
          const amount = BigInt(1 + random(1_000_000)) * 10n ** 12n
          txs.push([
            noise,
            noise,
            { address: pools[pool]!, topics: [topic(clEvents.Swap.selector), addressWord(sender), addressWord(sender)], data: Buffer.concat([word(amount), word(-amount / 1000n), word((1n << 96n) + BigInt(ticks[pool]!) * 10n ** 20n), word(10n ** 22n), word(ticks[pool]!)]) },
          ])
        } else if (slot === 8 || positions.length === 0) {
          const pool = random(pools.length)
          const lower = (Math.floor(ticks[pool]! / 60) - 1 - random(20)) * 60
          const position = { pool: pools[pool]!, owner: sender, lower, upper: lower + 60 * (2 + random(40)), liquidity: BigInt(1 + random(1_000_000)) * 10n ** 15n }
          positions.push(position)
          txs.push([{ address: position.pool, topics: [topic(clEvents.Mint.selector), addressWord(sender), word(position.lower), word(position.upper)], data: Buffer.concat([addressWord(sender), word(position.liquidity), word(position.liquidity / 3n), word(position.liquidity / 5n)]) }])
        } else {
          // Half of an open position out, and collected in the same transaction.
          const position = positions[random(positions.length)]!
          const amount = position.liquidity / 2n
          position.liquidity -= amount
          const owner = addressWord(position.owner)
          txs.push([
            { address: position.pool, topics: [topic(clEvents.Burn.selector), owner, word(position.lower), word(position.upper)], data: Buffer.concat([word(amount), word(amount / 3n), word(amount / 5n)]) },
            { address: position.pool, topics: [topic(clEvents.Collect.selector), owner, word(position.lower), word(position.upper)], data: Buffer.concat([owner, word(amount / 3n), word(amount / 5n)]) },
          ])
        }
      }
      insertBlock.run(block, hash(block, 0xffffff), hash(block - 1, 0xffffff), 1_700_000_000 + block, txs.length)
      txs.forEach((txLogs, index) => {
        const id = txId(block, index)
        insertTx.run(id, hash(block, index), block, index, addressWord(senders[0]!).subarray(12), null, txLogs.length)
        txLogs.forEach((log, logIndex) => {
          const [topic0, topic1, topic2, topic3] = log.topics
          insertLog.run(id, logIndex, block, Buffer.from(log.address.slice(2), 'hex'), topic0 ?? null, topic1 ?? null, topic2 ?? null, topic3 ?? null, log.data)
          logs++
        })
      })
    }
    db.run(SET_META_SQL, ['cursor', String(blocks - 1)])
  })()
  return logs
}
