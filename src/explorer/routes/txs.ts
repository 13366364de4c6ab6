import { Elysia } from 'elysia'
import type { Address, Hex } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { CallFrame } from '../../spool/traces.ts'
import { decodeInput, decodeLog, methodName } from '../decode/decode.ts'
import type { Explorer } from '../explorer.ts'
import { checksum, checksumOrNull } from '../../eth/address.ts'
import { blob, hex, parseHash } from '../../eth/bytes.ts'
import { decimal } from '../../eth/quantity.ts'
import { traceAddress } from '../format.ts'
import { page } from '../paging.ts'
import { TX_COLUMNS, txSummary, type TxRecord } from '../rows.ts'
import { decodeTransfers, type RawLog } from '../transfers.ts'

type FullTxRecord = TxRecord & {
  block_hash: Uint8Array
  nonce: number
  type: number
  gas: number
  gas_price: string | null
  max_fee: string | null
  max_priority_fee: string | null
  input: Uint8Array
}

/** Token metadata lasts: a token's symbol and decimals are read again at most once a minute. */
const TOKEN_META_AGE_MS = 60_000

/** Spec 03: `/txs` (newest first, no total) and `/tx/{hash}`, the full transaction. */
export function txRoutes(explorer: Explorer) {
  const { db, registry } = explorer
  const label = (address: string | null) => (address === null ? null : registry.label(address))

  /** The call tree as stored, with amounts as decimal strings and addresses checksummed. */
  const frame = (call: CallFrame): unknown => ({
    type: call.type,
    from: traceAddress(call.from),
    to: traceAddress(call.to),
    toLabel: registry.labelName(call.to),
    value: decimal(call.value),
    gas: call.gas === null ? null : Number(BigInt(call.gas)),
    gasUsed: call.gasUsed === null ? null : Number(BigInt(call.gasUsed)),
    method: call.input.length >= 10 ? methodName(call.input.slice(0, 10) as Hex) : null,
    input: call.input,
    output: call.output,
    error: call.error,
    calls: call.calls.map(frame),
  })

  const detail = async (hash: Hex) => {
    const row = db
      .query<FullTxRecord, [Uint8Array]>(
        `SELECT ${TX_COLUMNS}, b.hash AS block_hash, t.nonce, t.type, t.gas, t.gas_price, t.max_fee, t.max_priority_fee, t.input
           FROM txs t JOIN blocks b ON b.number = t.block_number WHERE t.hash = ?`,
      )
      .get(blob(hash))
    if (!row) throw new NotFoundError('unknown transaction')

    const logRows = db
      .query<RawLog & { log_index: number }, [number]>(
        'SELECT log_index AS logIndex, address, topic0, topic1, topic2, topic3, data FROM logs WHERE tx_id = ? ORDER BY log_index',
      )
      .all(row.id)
    const trace = db.query<{ trace: string }, [number]>('SELECT trace FROM traces WHERE tx_id = ?').get(row.id)
    const to = checksumOrNull(row.to_addr)
    const toKind = row.to_addr
      ? db.query<{ kind: number }, [Uint8Array]>('SELECT kind FROM explorer_tokens WHERE address = ?').get(row.to_addr)?.kind
      : undefined

    const transfers = logRows.flatMap(decodeTransfers)
    const fungible = transfers.filter((transfer) => transfer.kind === 20)
    // Unlisted tokens are named by asking them (one batch, remembered for a minute); with the
    // node away their symbol and decimals are null.
    const unlisted = [...new Set(fungible.map((transfer) => checksum(transfer.token)))].filter((token) => !registry.token(token))
    const probes = await explorer.probes.probe(unlisted as Address[], TOKEN_META_AGE_MS)
    const tokenMeta = (token: Address) => {
      const listed = registry.token(token)
      const probe = listed ? null : probes.get(token.toLowerCase())
      return { symbol: listed?.symbol ?? probe?.symbol ?? null, decimals: listed?.decimals ?? probe?.decimals ?? null, verified: listed !== null }
    }

    const input = hex(row.input)!
    return {
      ...txSummary(row, registry),
      blockHash: hex(row.block_hash),
      nonce: row.nonce,
      type: row.type,
      gas: row.gas,
      gasPrice: row.gas_price,
      maxFeePerGas: row.max_fee,
      maxPriorityFeePerGas: row.max_priority_fee,
      effectiveGasPrice: row.effective_gas_price,
      status: row.status === 1 ? 'success' : 'reverted',
      input,
      decoded: to ? decodeInput(input, { nft: toKind === 721 }) : null,
      logs: logRows.map((log) => {
        const address = checksum(log.address)
        const topics = [log.topic0, log.topic1, log.topic2, log.topic3].filter((topic): topic is Uint8Array => topic !== null).map((topic) => hex(topic)!)
        const data = hex(log.data)!
        return { logIndex: log.logIndex, address, label: label(address), topics, data, event: decodeLog(topics, data) }
      }),
      // Null when the node gave no traces for this transaction (the spool says so in its health).
      traces: trace ? [frame(JSON.parse(trace.trace) as CallFrame)] : null,
      tokenTransfers: fungible.map((transfer) => {
        const token = checksum(transfer.token)
        return { logIndex: transfer.logIndex, token, tokenLabel: registry.labelName(token), ...tokenMeta(token), from: checksum(transfer.from), to: checksum(transfer.to), value: transfer.amount }
      }),
      nftTransfers: transfers
        .filter((transfer) => transfer.kind !== 20)
        .map((transfer) => {
          const token = checksum(transfer.token)
          return {
            logIndex: transfer.logIndex,
            ...(transfer.kind === 1155 ? { batchIndex: transfer.seq } : {}),
            token,
            tokenLabel: registry.labelName(token),
            standard: `erc${transfer.kind}`,
            from: checksum(transfer.from),
            to: checksum(transfer.to),
            tokenId: transfer.tokenId,
            amount: transfer.amount,
          }
        }),
    }
  }

  return new Elysia({ name: 'explorer-txs' })
    .get('/txs', ({ query }) => {
      const { limit, offset } = page(query)
      return db
        .query<TxRecord, [number, number]>(`SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.number = t.block_number ORDER BY t.id DESC LIMIT ? OFFSET ?`)
        .all(limit, offset)
        .map((row) => txSummary(row, registry))
    })
    // A stored transaction changes only if a reorganisation drops it, so its answer is kept as
    // briefly as the address pages' (a few seconds) and a burst of views costs one read.
    // Keyed by the hash as parsed: a malformed one is refused whether or not a twin is cached.
    .get('/tx/:hash', ({ params }) => {
      const hash = parseHash(params.hash)
      if (!hash) throw new NotFoundError('unknown transaction')
      return explorer.answers.get(`tx:${hash}`, () => detail(hash))
    })
}
