import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { count, gwei, short } from '../format.ts'
import { AddressLink, Failure, Fields, Loading, Pager, Section, Time } from '../ui.tsx'
import type { BlockRow, MiniRow, TxRow } from '../types.ts'
import { BlockTable, TxTable } from './home.tsx'

const PAGE = 25

/** `offset` of the page's query, a whole number or 0. */
export const offsetOf = (query: Record<string, string>) => Math.max(Number.parseInt(query.offset ?? '0', 10) || 0, 0)

export function BlocksPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const { data, error } = useApi<BlockRow[]>(`/blocks?limit=${PAGE}&offset=${offset}`, offset === 0 ? 5000 : undefined)
  return (
    <Section title="Blocks" id="blocks" main>
      {error && !data ? <Failure error={error} what="blocks" /> : !data ? <Loading what="blocks" /> : <BlockTable blocks={data} />}
      <Pager base="/blocks" offset={offset} limit={PAGE} shown={data?.length ?? 0} />
      <p class="more">
        <a href="/minis">Mini-blocks →</a>
      </p>
    </Section>
  )
}

type BlockDetail = BlockRow & {
  parentHash: string
  miner: string
  minerLabel: string | null
  gasLimit: number
  baseFeePerGas: string | null
  size: number | null
  minis: MiniRow[]
  transactions: TxRow[]
}

export function BlockPage() {
  const { params } = useRoute()
  const { data, error } = useApi<BlockDetail>(`/block/${encodeURIComponent(params.number ?? '')}`)
  if (error) return <Failure error={error} what="block" />
  if (!data) return <Loading what={`block ${params.number}`} />
  return (
    <>
      <Section title={`Block ${count(data.number)}`} id="block" main>
        <Fields
          rows={[
            ['Hash', <span class="mono wrap">{data.hash}</span>],
            ['Time', <Time seconds={data.timestamp} both />],
            ['Parent', data.number > 0 ? <a class="mono" href={`/block/${data.number - 1}`} title={data.parentHash}>{short(data.parentHash)}</a> : null],
            ['Transactions', count(data.txCount)],
            ['Mini-blocks', count(data.miniCount)],
            ['Gas used', `${count(data.gasUsed)} of ${count(data.gasLimit)}`],
            ['Base fee', gwei(data.baseFeePerGas)],
            ['Producer', <AddressLink address={data.miner} label={data.minerLabel} full />],
            ['Size', data.size === null ? null : `${count(data.size)} bytes`],
          ]}
        />
        <nav class="pager" aria-label="neighbouring blocks">
          {data.number > 0 ? <a href={`/block/${data.number - 1}`}>← Block {count(data.number - 1)}</a> : <span />}
          <a href={`/block/${data.number + 1}`}>Block {count(data.number + 1)} →</a>
        </nav>
      </Section>
      <Section title="Transactions" id="block-txs">
        {data.transactions.length === 0 ? <p class="muted">This block carried no transactions.</p> : <TxTable txs={data.transactions} showBlock={false} />}
      </Section>
      <Section title="Mini-blocks" id="block-minis">
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>Mini-block</th>
                <th>Hash</th>
                <th>Time</th>
                <th class="number">Transactions</th>
              </tr>
            </thead>
            <tbody>
              {data.minis.map((mini) => (
                <tr key={mini.hash}>
                  <td>
                    <a href={`/mini/${mini.number}`}>{count(mini.number)}</a>
                  </td>
                  <td class="mono" title={mini.hash}>
                    <a href={`/mini/${mini.hash}`}>{short(mini.hash)}</a>
                  </td>
                  <td>
                    <Time seconds={Math.floor(mini.timestamp_us / 1e6)} />
                  </td>
                  <td class="number">{count(mini.txCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
    </>
  )
}

