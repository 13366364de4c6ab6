import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { count, gwei, short } from '../format.ts'
import { BlockTable, MiniTable, TxTable } from '../tables.tsx'
import { AddressLink, Fields, Loading, Failure, PAGE_ROWS, Pager, Section, Time, WhenLoaded, offsetOf } from '../ui.tsx'
import type { BlockRow, MiniRow, TxRow } from '../types.ts'

export function BlocksPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const loaded = useApi<BlockRow[]>(`/blocks?limit=${PAGE_ROWS}&offset=${offset}`, offset === 0 ? 5000 : undefined)
  return (
    <Section title="Blocks" id="blocks" main>
      <WhenLoaded loaded={loaded} what="blocks">
        {(blocks) => <BlockTable blocks={blocks} />}
      </WhenLoaded>
      <Pager base="/blocks" offset={offset} limit={PAGE_ROWS} shown={loaded.data?.length ?? 0} />
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
        <TxTable txs={data.transactions} showBlock={false} empty="This block carried no transactions." />
      </Section>
      <Section title="Mini-blocks" id="block-minis">
        <MiniTable minis={data.minis} showBlock={false} timeHead="Time" />
      </Section>
    </>
  )
}
