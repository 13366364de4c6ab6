import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count, ether, gwei, short } from '../format.ts'
import { TokenTransferTable, TxTable, addressColumn } from '../tables.tsx'
import { AddressLink, BlockLink, Failure, Fields, Loading, PAGE_ROWS, Pager, Section, Time, WhenLoaded, offsetOf } from '../ui.tsx'
import type { CallFrame, NftTransfer, TxDetail, TxRow } from '../types.ts'
import { Hex, Value } from '../values.tsx'

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

export function TxPage() {
  const { params } = useRoute()
  const { data: tx, error } = useApi<TxDetail>(`/tx/${encodeURIComponent(params.hash ?? '')}`)
  if (error) return <Failure error={error} what="transaction" />
  if (!tx) return <Loading what="the transaction" />
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
            ['Fee', <span id="tx-fee">{ether(tx.fee)}</span>],
            ['Gas', `${count(tx.gasUsed)} used of ${count(tx.gas)}`],
            ['Gas price', gwei(tx.effectiveGasPrice ?? tx.gasPrice)],
            ['Nonce', count(tx.nonce)],
          ]}
        />
      </Section>
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
          <Hex value={tx.input} what="input" id="tx-input-data" />
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
                        <Value value={value} />
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
