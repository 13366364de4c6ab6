import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { useApi } from '../api.ts'
import { count, ether, gwei, units } from '../format.ts'
import { AddressLink, BlockLink, Failure, Fields, Loading, Pager, Section, Time } from '../ui.tsx'
import type { CallFrame, DecodedValue, TxDetail, TxRow } from '../types.ts'
import { offsetOf } from './blocks.tsx'
import { TxTable } from './home.tsx'

const PAGE = 25

export function TxsPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const { data, error } = useApi<TxRow[]>(`/txs?limit=${PAGE}&offset=${offset}`, offset === 0 ? 5000 : undefined)
  return (
    <Section title="Transactions" id="txs" main>
      {error && !data ? <Failure error={error} what="transactions" /> : !data ? <Loading what="transactions" /> : <TxTable txs={data} />}
      <Pager base="/txs" offset={offset} limit={PAGE} shown={data?.length ?? 0} />
    </Section>
  )
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** A decoded value: addresses as links, lists and tuples spelled out. */
function Value({ value }: { value: DecodedValue }) {
  if (typeof value === 'string' && ADDRESS.test(value)) return <AddressLink address={value} full="unnamed" />
  if (Array.isArray(value)) return <span>[{value.map((item, index) => <>{index > 0 ? ', ' : ''}<Value value={item} /></>)}]</span>
  if (value !== null && typeof value === 'object') return <span>{'{'}{Object.entries(value).map(([key, item], index) => <>{index > 0 ? ', ' : ''}{key}: <Value value={item} /></>)}{'}'}</span>
  return <span class="mono wrap">{String(value)}</span>
}

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
      <Section title="Transaction" id="tx" main>
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
            <table>
              <thead>
                <tr>
                  <th>Argument</th>
                  <th>Type</th>
                  <th>Value</th>
                </tr>
              </thead>
              <tbody>
                {tx.decoded.args.map((arg, index) => (
                  <tr key={index}>
                    <td>{arg.name || `#${index}`}</td>
                    <td>
                      <code>{arg.type}</code>
                    </td>
                    <td>
                      <Value value={arg.value} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            )}
          </>
        ) : tx.input === '0x' ? (
          <p class="muted">No input: a plain transfer.</p>
        ) : (
          <p class="mono wrap">{tx.input}</p>
        )}
      </Section>
      {tx.tokenTransfers.length > 0 ? (
        <Section title="Token transfers" id="tx-token-transfers">
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>Token</th>
                  <th>From</th>
                  <th>To</th>
                  <th class="number">Amount</th>
                </tr>
              </thead>
              <tbody>
                {tx.tokenTransfers.map((transfer) => (
                  <tr key={transfer.logIndex}>
                    <td>
                      <a href={`/token/${transfer.token}`}>{transfer.symbol ?? transfer.tokenLabel ?? transfer.token}</a>
                      {transfer.verified ? <span class="badge good" title="listed in the token registry">verified</span> : null}
                    </td>
                    <td>
                      <AddressLink address={transfer.from} />
                    </td>
                    <td>
                      <AddressLink address={transfer.to} />
                    </td>
                    <td class="number">{transfer.decimals === null || transfer.decimals === undefined ? transfer.value : units(transfer.value, transfer.decimals)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ) : null}
      {tx.nftTransfers.length > 0 ? (
        <Section title="NFT transfers" id="tx-nft-transfers">
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>Collection</th>
                  <th>Item</th>
                  <th>From</th>
                  <th>To</th>
                  <th class="number">Amount</th>
                </tr>
              </thead>
              <tbody>
                {tx.nftTransfers.map((transfer) => (
                  <tr key={`${transfer.logIndex}:${transfer.tokenId}`}>
                    <td>
                      <a href={`/nft/${transfer.token}`}>{transfer.tokenLabel ?? transfer.token}</a>
                    </td>
                    <td>
                      <a href={`/nft/${transfer.token}/${transfer.tokenId}`}>#{transfer.tokenId}</a>
                    </td>
                    <td>
                      <AddressLink address={transfer.from} />
                    </td>
                    <td>
                      <AddressLink address={transfer.to} />
                    </td>
                    <td class="number">{transfer.amount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
                  <div>{log.data}</div>
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
