import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count, ether, short, units } from '../format.ts'
import { TokenTransferTable, TxTable, addressColumn } from '../tables.tsx'
import { AddressLink, BlockLink, Failure, Fields, Loading, PAGE_ROWS, Pager, Section, Time, WhenLoaded, offsetOf } from '../ui.tsx'
import type { CallFrame, DecodedValue, NftTransfer, TxDetail, TxLog, TxRow } from '../types.ts'
import { TxStateChanges } from './txState.tsx'
import { Hex, Value } from '../values.tsx'
import '../contract/contract.css'
import '../tx.css'

export function TxsPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const loaded = useApi<TxRow[]>(`/txs?limit=${PAGE_ROWS}&offset=${offset}`, offset === 0 ? 5000 : undefined)
  return (
    <Section title="Transactions" id="txs" main>
      <WhenLoaded loaded={loaded} what="transactions">
        {(txs) => <TxTable txs={txs} />}
      </WhenLoaded>
      <Pager base="/txs" offset={offset} limit={PAGE_ROWS} shown={loaded.data?.length ?? 0} />
    </Section>
  )
}

// Decoded values are drawn by values.tsx; pages that import them from here still find them.
export { Value } from '../values.tsx'

/** One call of the trace and the calls it made, folded open to `openDepth`. */
function Call({ frame, depth }: { frame: CallFrame; depth: number }) {
  const [open, setOpen] = useState(depth < 2)
  const inner = frame.calls ?? []
  return (
    <li class={frame.error ? 'call failed' : 'call'}>
      <div class="call-line">
        {inner.length > 0 ? (
          <button type="button" class="fold" aria-expanded={open} aria-label={open ? 'Fold the inner calls' : 'Unfold the inner calls'} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span class="fold" aria-hidden="true">
            ·
          </span>
        )}
        <code class="call-type">{frame.type}</code> <AddressLink address={frame.to} label={frame.toLabel} />
        {frame.method ? <code>.{frame.method}()</code> : null}
        {frame.value && frame.value !== '0' ? <span class="muted"> {ether(frame.value)}</span> : null}
        {frame.gasUsed !== null ? <span class="muted"> · {count(frame.gasUsed)} gas</span> : null}
        {frame.error ? <span class="badge bad">{frame.error}</span> : null}
      </div>
      {open && inner.length > 0 ? (
        <ul>
          {inner.map((call, index) => (
            <Call key={index} frame={call} depth={depth + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  )
}

/** A token's amount in its units with its symbol, the raw integer on hover; any other value as decoded. */
function EventValue({ log, name, value }: { log: TxLog; name: string; value: DecodedValue }) {
  const amount = log.units && log.units.args.includes(name) && typeof value === 'string' && /^-?\d+$/.test(value)
  if (!amount || !log.units) return <Value value={value} />
  return (
    <span class="mono token-amount" title={value}>
      {units(value, log.units.decimals)}
      {log.units.symbol ? ` ${log.units.symbol}` : ''}
    </span>
  )
}

/** The transaction types by their number, as wallets name them. */
const TX_TYPES: Record<number, string> = { 0: 'legacy', 1: 'access list (EIP-2930)', 2: 'EIP-1559', 3: 'blob (EIP-4844)', 4: 'set code (EIP-7702)' }

/** Wei per gas in gwei to the last wei: a dev chain's base fee is a few wei, which four places would hide. */
const exactGwei = (wei: string) => `${units(wei, 9, 9)} gwei`

/** Gas used as a share of the limit, to two places, by integer arithmetic. */
const share = (used: number, limit: number) => (limit > 0 ? `${(Math.floor((used * 10_000) / limit) / 100).toFixed(2)}%` : '–')

/** The gas block: what was paid per gas and to whom, what was burnt, how much of the limit was used. */
function Gas({ tx }: { tx: TxDetail }) {
  const price = tx.effectiveGasPrice ?? tx.gasPrice
  return (
    <Section title="Gas" id="tx-gas">
      <Fields
        rows={[
          ['Type', <span id="tx-type">{`${tx.type} · ${TX_TYPES[tx.type] ?? 'unknown'}`}</span>],
          ['Gas used', <span id="tx-gas-used">{`${count(tx.gasUsed)} of ${count(tx.gas)} (${share(tx.gasUsed, tx.gas)})`}</span>],
          ['Gas price', price === null ? null : <span id="tx-gas-price">{exactGwei(price)}</span>],
          ['Base fee', tx.baseFeePerGas === null ? null : <span id="tx-base-fee" title={`${tx.baseFeePerGas} wei`}>{exactGwei(tx.baseFeePerGas)}</span>],
          ['Max fee', tx.maxFeePerGas === null ? null : <span id="tx-max-fee">{exactGwei(tx.maxFeePerGas)}</span>],
          [
            'Priority fee',
            tx.priorityFeePerGas === null ? null : (
              <span id="tx-priority-fee">
                {exactGwei(tx.priorityFeePerGas)}
                {tx.maxPriorityFeePerGas !== null ? <span class="muted"> (at most {exactGwei(tx.maxPriorityFeePerGas)})</span> : null}
              </span>
            ),
          ],
          // Exact: on a quiet chain the base fee is a few wei, and six places would read "<0.000001".
          ['Burnt fee', tx.burntFee === null ? null : <span id="tx-burnt-fee" title={`${tx.burntFee} wei`}>{`${units(tx.burntFee, 18, 18)} ETH`}</span>],
          ['Fee', <span id="tx-fee">{ether(tx.fee)}</span>],
        ]}
      />
    </Section>
  )
}

/** The nonce with the sender's transactions either side of it. */
function Nonce({ tx }: { tx: TxDetail }) {
  return (
    <>
      {count(tx.nonce)}
      <span class="neighbours">
        {tx.previousTx ? (
          <a id="tx-previous" href={`/tx/${tx.previousTx.hash}`} title={`the sender's transaction with nonce ${tx.previousTx.nonce}`}>
            ← previous ({short(tx.previousTx.hash, 4)})
          </a>
        ) : (
          <span class="muted">first of the sender's</span>
        )}
        {tx.nextTx ? (
          <a id="tx-next" href={`/tx/${tx.nextTx.hash}`} title={`the sender's transaction with nonce ${tx.nextTx.nonce}`}>
            next ({short(tx.nextTx.hash, 4)}) →
          </a>
        ) : (
          <span class="muted">latest of the sender's</span>
        )}
      </span>
    </>
  )
}

const TX_TABS = [
  ['overview', 'Overview'],
  ['state', 'State changes'],
] as const

export function TxPage() {
  const { params, query } = useRoute()
  const { data: tx, error } = useApi<TxDetail>(`/tx/${encodeURIComponent(params.hash ?? '')}`)
  if (error) return <Failure error={error} what="transaction" />
  if (!tx) return <Loading what="the transaction" />
  const tab = query.tab === 'state' ? 'state' : 'overview'
  return (
    <>
      <Section title="Transaction" id="tx" main tab={`Transaction ${short(tx.hash)}`}>
        {tx.success ? null : (
          <p class="revert" id="tx-revert" role="status">
            <strong>Failed</strong>
            {tx.revertReason ? <>: <span id="tx-revert-reason">{tx.revertReason.message}</span></> : null}
          </p>
        )}
        <Fields
          rows={[
            ['Hash', <span class="mono wrap">{tx.hash}</span>],
            ['Status', tx.success ? <span class="badge good" id="tx-status">Success</span> : <span class="badge bad" id="tx-status">Failed</span>],
            ['Block', <><BlockLink number={tx.blockNumber} /> <span class="muted">(position {tx.index})</span></>],
            ['Time', <Time seconds={tx.timestamp} both />],
            ['From', <AddressLink address={tx.from} label={tx.fromLabel} full />],
            ['To', tx.to ? <AddressLink address={tx.to} label={tx.toLabel} full /> : <>Contract creation: <AddressLink address={tx.created} full /></>],
            ['Value', <span id="tx-value">{ether(tx.value)}</span>],
            ['Nonce', <Nonce tx={tx} />],
          ]}
        />
      </Section>
      <Gas tx={tx} />
      <nav class="tabs tx-tabs" role="tablist" aria-label="transaction">
        {TX_TABS.map(([id, name]) => (
          <a key={id} id={`tab-${id}`} role="tab" href={`/tx/${tx.hash}${id === 'overview' ? '' : `?tab=${id}`}`} aria-selected={tab === id} class={tab === id ? 'tab current' : 'tab'}>
            {name}
          </a>
        ))}
      </nav>
      {tab === 'state' ? (
        <section class="card" role="tabpanel" id="tx-state" aria-labelledby="tab-state">
          <TxStateChanges hash={tx.hash} />
        </section>
      ) : (
        <div class="grid" role="tabpanel" id="tx-overview" aria-labelledby="tab-overview">
          <Overview tx={tx} />
        </div>
      )}
    </>
  )
}

/** The transaction's input, transfers, logs and call trace. */
function Overview({ tx }: { tx: TxDetail }) {
  return (
    <>
      <Section title="Input" id="tx-input">
        {tx.decoded ? (
          <>
            <p>
              <code id="tx-method">{tx.decoded.signature}</code>
            </p>
            {tx.decoded.args.length === 0 ? null : (
              <DataTable
                rows={tx.decoded.args}
                rowKey={(_arg, index) => index}
                columns={[
                  { head: 'Argument', cell: (arg, index) => arg.name || `#${index}` },
                  { head: 'Type', cell: (arg) => <code>{arg.type}</code> },
                  { head: 'Value', class: 'value-cell', cell: (arg) => <Value value={arg.value} /> },
                ]}
              />
            )}
          </>
        ) : tx.input === '0x' ? (
          <p class="muted">No input: a plain transfer.</p>
        ) : (
          <>
            {tx.to === null ? <p class="muted">Init code of the contract it created:</p> : null}
            <Hex value={tx.input} what={tx.to === null ? 'init code' : 'input'} fold={200} id="tx-input-hex" />
          </>
        )}
      </Section>
      {tx.tokenTransfers.length > 0 ? (
        <Section title="Token transfers" id="tx-token-transfers">
          <TokenTransferTable transfers={tx.tokenTransfers} rowKey={(transfer) => transfer.logIndex} />
        </Section>
      ) : null}
      {tx.nftTransfers.length > 0 ? (
        <Section title="NFT transfers" id="tx-nft-transfers">
          <DataTable
            rows={tx.nftTransfers}
            rowKey={(transfer) => `${transfer.logIndex}:${transfer.tokenId}`}
            columns={[
              { head: 'Collection', cell: (transfer) => <a href={`/nft/${transfer.token}`}>{transfer.tokenLabel ?? transfer.token}</a> },
              { head: 'Item', cell: (transfer) => <a href={`/nft/${transfer.token}/${transfer.tokenId}`}>#{transfer.tokenId}</a> },
              addressColumn<NftTransfer>('From', (transfer) => transfer.from),
              addressColumn<NftTransfer>('To', (transfer) => transfer.to),
              { head: 'Amount', number: true, cell: (transfer) => transfer.amount },
            ]}
          />
        </Section>
      ) : null}
      <Section title={`Logs (${tx.logs.length})`} id="tx-logs">
        {tx.logs.length === 0 ? <p class="muted">No logs.</p> : null}
        <ol class="logs">
          {tx.logs.map((log) => (
            <li key={log.logIndex}>
              <p>
                <span class="muted">#{log.logIndex}</span> <AddressLink address={log.address} label={log.label?.name} />{' '}
                {log.event ? <code class="event">{log.event.name}</code> : <span class="muted">not decoded</span>}
              </p>
              {log.event ? (
                <dl class="args">
                  {Object.entries(log.event.args).map(([name, value]) => (
                    <div key={name}>
                      <dt>{name}</dt>
                      <dd>
                        <EventValue log={log} name={name} value={value} />
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : (
                <div class="mono wrap small">
                  {log.topics.map((topic) => (
                    <div key={topic}>{topic}</div>
                  ))}
                  <Hex value={log.data} what="log data" />
                </div>
              )}
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Call trace" id="tx-trace">
        {tx.traces && tx.traces.length > 0 ? (
          <ul class="trace">
            {tx.traces.map((frame, index) => (
              <Call key={index} frame={frame} depth={0} />
            ))}
          </ul>
        ) : (
          <p class="muted">The node gave no call trace for this transaction.</p>
        )}
      </Section>
    </>
  )
}
