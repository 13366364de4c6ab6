import type { Abi, Hex } from 'viem'
import FeeRouter from '../../contracts/out/FeeRouter.json' with { type: 'json' }
import type { Config } from '../config/load.ts'
import { addressKey } from '../eth/address.ts'
import { blob } from '../eth/bytes.ts'
import { eventSelector } from '../eth/events.ts'
import { addressTopic, addressWord, hexOf, uint } from '../eth/words.ts'
import type { SpoolTx } from '../spool/engine.ts'
import { appendedRows, Entities } from '../spool/kit/entities.ts'
import { createdTable, eventTable, versionedHistorySql, versionedTable } from '../spool/kit/tables.ts'
import type { Migration } from '../spool/migrations.ts'
import type { SpoolLog, StreamDefinition } from '../spool/streams.ts'

/** The fee router's ABI, as compiled from contracts/FeeRouter.sol. */
export const feeRouterAbi = FeeRouter.abi as Abi

const selector = (name: string): Hex => eventSelector(feeRouterAbi, name)

export const FEE_TOPICS = {
  Configured: selector('Configured'),
  FeeReceived: selector('FeeReceived'),
  Distributed: selector('Distributed'),
  Claimed: selector('Claimed'),
} as const

/** The router's sources of fees (its `Source` enum), by number. */
export const FEE_SOURCES = ['launch', 'name', 'arcade'] as const

/** The name of source `n`; one the router may add later still has one. */
export const sourceName = (source: number): string => FEE_SOURCES[source] ?? `source${source}`

export const FEES_STREAM = 'fees'

/**
 * Per router, one running total per figure, in base units (ether in wei, the token in its own),
 * with the number of events that moved it:
 *   received:<source>:eth | received:<source>:token   what each source paid
 *   burned:eth | burned:token                         the burned share of the splits
 *   treasury:eth | treasury:token                     the treasury's share of the splits
 *   claimed:eth | claimed:token                       what the treasury took
 *   distributions | claims                            counts alone
 */
const totalsTable = versionedTable({ table: 'explorer_fee_totals', keys: ['router', 'figure'], columns: ['amount', 'count'] })

export const feeTables = [createdTable('explorer_fee_routers', 'block_number'), totalsTable, eventTable('explorer_fee_movements')]

const feeMigrations: Migration[] = [
  {
    id: 'explorer/fees/001-routers-totals-movements',
    sql: `
      -- A router's fixed settings, from the event its constructor emits.
      CREATE TABLE explorer_fee_routers (
        router BLOB PRIMARY KEY,
        treasury BLOB NOT NULL,
        token BLOB NOT NULL,
        burn_bps INTEGER NOT NULL,
        burn_address BLOB NOT NULL,
        block_number INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE explorer_fee_totals (
        router BLOB NOT NULL,
        figure TEXT NOT NULL,
        amount TEXT NOT NULL,                -- decimal
        count INTEGER NOT NULL,
        PRIMARY KEY (router, figure)
      ) WITHOUT ROWID;
      ${versionedHistorySql(totalsTable)}

      -- Every movement: a fee received (kind 'received', its source and payer), a split
      -- ('distributed': eth and token split, of which eth_burned and token_burned burned), a
      -- claim ('claimed', by the treasury).
      CREATE TABLE explorer_fee_movements (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block_number INTEGER NOT NULL,
        router BLOB NOT NULL,
        kind TEXT NOT NULL,
        source INTEGER,
        account BLOB NOT NULL,
        eth TEXT NOT NULL,
        token TEXT NOT NULL,
        eth_burned TEXT,
        token_burned TEXT,
        PRIMARY KEY (tx_id, log_index)
      ) WITHOUT ROWID;
      CREATE INDEX explorer_fee_movements_router ON explorer_fee_movements(router, tx_id, log_index);
    `,
  },
]

type Total = { amount: bigint; count: number }

const ZERO_ADDRESS = '0'.repeat(40)

/** Folds the router's logs into its totals and movements; logs of any other emitter are ignored. */
export async function applyFeeLogs(tx: SpoolTx, logs: SpoolLog[], router: string | null): Promise<void> {
  if (router === null) return
  const routerBlob = blob(router)
  const totals = new Entities<Total>(
    tx,
    totalsTable,
    (total) => [total.amount.toString(), total.count],
    (row) => ({ amount: BigInt(row.amount as string), count: row.count as number }),
  )
  const add = async (figure: string, amount: bigint, block: number) => {
    const total = (await totals.edit(figure, [routerBlob, figure], block, () => ({ amount: 0n, count: 0 })))!
    total.amount += amount
    total.count++
  }
  const insertRouter = `INSERT INTO explorer_fee_routers (router, treasury, token, burn_bps, burn_address, block_number) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (router) DO UPDATE SET treasury = excluded.treasury, token = excluded.token, burn_bps = excluded.burn_bps,
      burn_address = excluded.burn_address, block_number = excluded.block_number`
  const movements = appendedRows(tx, 'INSERT INTO explorer_fee_movements (tx_id, log_index, block_number, router, kind, source, account, eth, token, eth_burned, token_burned)')
  for (const log of logs) {
    if (hexOf(log.address) !== router || !log.topic0) continue
    const topic = `0x${hexOf(log.topic0)}`
    const block = log.blockNumber
    const movement = (kind: string, source: number | null, account: Uint8Array, eth: bigint, token: bigint, burned: [bigint, bigint] | null) =>
      movements.add(log.txId, log.logIndex, block, routerBlob, kind, source, account, eth.toString(), token.toString(), burned?.[0].toString() ?? null, burned?.[1].toString() ?? null)
    if (topic === FEE_TOPICS.Configured) {
      tx.queue(insertRouter, routerBlob, addressTopic(log.topic1), addressTopic(log.topic2), Number(uint(log.data, 0)), addressWord(log.data, 1), block)
    } else if (topic === FEE_TOPICS.FeeReceived) {
      const source = Number(uint(log.topic1!, 0))
      const isEther = hexOf(addressTopic(log.topic3)) === ZERO_ADDRESS
      const amount = uint(log.data, 0)
      await add(`received:${sourceName(source)}:${isEther ? 'eth' : 'token'}`, amount, block)
      movement('received', source, addressTopic(log.topic2), isEther ? amount : 0n, isEther ? 0n : amount, null)
    } else if (topic === FEE_TOPICS.Distributed) {
      const [ethBurned, ethToTreasury, tokenBurned, tokenToTreasury] = [0, 1, 2, 3].map((index) => uint(log.data, index)) as [bigint, bigint, bigint, bigint]
      await add('burned:eth', ethBurned, block)
      await add('burned:token', tokenBurned, block)
      await add('treasury:eth', ethToTreasury, block)
      await add('treasury:token', tokenToTreasury, block)
      await add('distributions', 0n, block)
      movement('distributed', null, addressTopic(log.topic1), ethBurned + ethToTreasury, tokenBurned + tokenToTreasury, [ethBurned, tokenBurned])
    } else if (topic === FEE_TOPICS.Claimed) {
      const [eth, token] = [uint(log.data, 0), uint(log.data, 1)]
      await add('claimed:eth', eth, block)
      await add('claimed:token', token, block)
      await add('claims', 0n, block)
      movement('claimed', null, addressTopic(log.topic1), eth, token, null)
    }
  }
  totals.flush()
  movements.flush()
}

/** The router the config names, as the stream compares emitters: 40 lower-case hex digits, or null. */
export function feeRouterOf(config: Config): string | null {
  return config.explorer.feeRouter ? addressKey(config.explorer.feeRouter) : null
}

/**
 * The `fees` derived stream: the logs of the fee router the config names (`explorer.feeRouter`),
 * kept as running totals per source and side (ether and the token apart) and as a list of
 * movements, for `/fees`. With no router configured it derives nothing.
 */
export function feeStream(config: Config): StreamDefinition {
  const router = feeRouterOf(config)
  return {
    name: FEES_STREAM,
    migrations: feeMigrations,
    topics: Object.values(FEE_TOPICS),
    tables: feeTables,
    apply: (db, logs) => applyFeeLogs(db, logs, router),
  }
}


