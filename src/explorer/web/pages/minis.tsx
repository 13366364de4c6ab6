import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { count, short } from '../format.ts'
import { BlockLink, Failure, Fields, Loading, Pager, Section, Time } from '../ui.tsx'
import type { MiniRow, TxRow } from '../types.ts'
import { offsetOf } from './blocks.tsx'
import { TxTable } from './home.tsx'

const PAGE = 25

/** Microseconds (mini-block times) as whole seconds, for the time components. */
const seconds = (microseconds: number) => Math.floor(microseconds / 1e6)

function MiniTable({ minis }: { minis: MiniRow[] }) {
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th>Mini-block</th>
            <th>Block</th>
            <th>Hash</th>
            <th>Age</th>
            <th class="number">Transactions</th>
          </tr>
        </thead>
        <tbody>
          {minis.map((mini) => (
            <tr key={mini.hash}>
              <td>
                <a href={`/mini/${mini.number}`}>{count(mini.number)}</a>
              </td>
              <td>
                <BlockLink number={mini.blockNumber} />
              </td>
              <td class="mono" title={mini.hash}>
                <a href={`/mini/${mini.hash}`}>{short(mini.hash)}</a>
              </td>
              <td>
                <Time seconds={seconds(mini.timestamp_us)} />
              </td>
              <td class="number">{count(mini.txCount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function MinisPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const { data, error } = useApi<{ total: number; minis: MiniRow[] }>(`/minis?limit=${PAGE}&offset=${offset}`, offset === 0 ? 5000 : undefined)
  return (
    <Section title={data ? `Mini-blocks (${count(data.total)})` : 'Mini-blocks'} id="minis" main>
      {error && !data ? <Failure error={error} what="mini-blocks" /> : !data ? <Loading what="mini-blocks" /> : <MiniTable minis={data.minis} />}
      <Pager base="/minis" offset={offset} limit={PAGE} shown={data?.minis.length ?? 0} />
    </Section>
  )
}

type MiniDetail = MiniRow & { transactions?: TxRow[]; source?: string }

export function MiniPage() {
  const { params } = useRoute()
  const { data, error } = useApi<MiniDetail>(`/mini/${encodeURIComponent(params.id ?? '')}`)
  if (error) return <Failure error={error} what="mini-block" />
  if (!data) return <Loading what="the mini-block" />
  return (
    <>
      <Section title={`Mini-block ${count(data.number)}`} id="mini" main>
        <Fields
          rows={[
            ['Hash', <span class="mono wrap">{data.hash}</span>],
            ['Block', <BlockLink number={data.blockNumber} />],
            ['Time', <Time seconds={seconds(data.timestamp_us)} both />],
            ['Transactions', count(data.txCount)],
          ]}
        />
      </Section>
      {data.transactions && data.transactions.length > 0 ? (
        <Section title="Transactions" id="mini-txs">
          <TxTable txs={data.transactions} showBlock={false} />
        </Section>
      ) : null}
    </>
  )
}
