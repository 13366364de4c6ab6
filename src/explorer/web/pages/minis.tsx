import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { count } from '../format.ts'
import { MiniTable, TxTable, miniSeconds } from '../tables.tsx'
import { BlockLink, Failure, Fields, Loading, PAGE_ROWS, Pager, Section, Time, WhenLoaded, offsetOf } from '../ui.tsx'
import type { MiniRow, TxRow } from '../types.ts'

export function MinisPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const loaded = useApi<{ total: number; minis: MiniRow[] }>(`/minis?limit=${PAGE_ROWS}&offset=${offset}`, offset === 0 ? 5000 : undefined)
  const { data } = loaded
  return (
    <Section title={data ? `Mini-blocks (${count(data.total)})` : 'Mini-blocks'} id="minis" main>
      <WhenLoaded loaded={loaded} what="mini-blocks">
        {({ minis }) => <MiniTable minis={minis} />}
      </WhenLoaded>
      <Pager base="/minis" offset={offset} limit={PAGE_ROWS} shown={data?.minis.length ?? 0} />
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
            ['Time', <Time seconds={miniSeconds(data.timestamp_us)} both />],
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
