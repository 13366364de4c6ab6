import { retryFailed, useApi, useLiveStats, type LiveState } from '../api.ts'
import { BlockChart } from '../chart.tsx'
import { DataTable } from '../dataTable.tsx'
import { count, gwei } from '../format.ts'
import { BlockTable, TxTable, accountColumn, countColumn } from '../tables.tsx'
import { Failure, Loading, Section } from '../ui.tsx'
import type { AccountRow, BlockRow, ChartPoint, Stats, TxRow } from '../types.ts'

type Overview = { stats: Stats; charts: ChartPoint[]; blocks: BlockRow[]; txs: TxRow[]; topAccounts: AccountRow[] }

/** The figures of the stats, as a person reads them. */
function StatCards({ stats }: { stats: Stats }) {
  const cards: Array<[string, string, string]> = [
    ['latest-block', 'Latest block', count(stats.latestBlock ?? 0)],
    ['transactions', 'Transactions', count(stats.transactions ?? 0)],
    ['wallets', 'Wallets', count(stats.wallets ?? 0)],
    ['contracts', 'Contracts', count(stats.contracts ?? 0)],
    ['tokens', 'Tokens', count(stats.tokens ?? 0)],
    ['block-time', 'Block time', stats.blockTimeMs === null || stats.blockTimeMs === undefined ? '–' : `${(stats.blockTimeMs / 1000).toFixed(2)} s`],
    ['index-lag', 'Index lag', `${count(stats.indexLag ?? 0)} blocks`],
    ['gas-price', 'Gas price', gwei(stats.gasPrice)],
  ]
  return (
    <dl class="stats" aria-live="polite">
      {cards.map(([id, name, value]) => (
        <div key={id} id={`stat-${id}`}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** Said while the live stream is away: the figures below stop where they were until it is back. */
function LiveNotice({ state }: { state: LiveState }) {
  return (
    <div role="status" class="live-region">
      {state === 'reconnecting' ? (
        <p class="notice" id="live-status">
          <strong>Live updates lost: reconnecting…</strong> The figures below are as they were; they catch up once the stream is back.
        </p>
      ) : null}
    </div>
  )
}

export function HomePage() {
  const { data, error } = useApi<Overview>('/overview', 5000)
  const { stats, state } = useLiveStats<Stats>(data?.stats ?? null, retryFailed)
  if (error && !data) return <Failure error={error} what="overview" />
  if (!data || !stats) return <Loading what="the chain" />
  const charts = data.charts
  return (
    <>
      <h1 class="visually-hidden" data-tab="">
        Chain 78270
      </h1>
      <LiveNotice state={state} />
      <StatCards stats={stats} />
      <div class="grid two">
        <Section title="Transactions per block" id="chart-txs">
          <BlockChart blocks={charts.map((point) => point.number)} values={charts.map((point) => point.txCount)} label="transactions" bars />
        </Section>
        <Section title="Gas used per block" id="chart-gas">
          <BlockChart blocks={charts.map((point) => point.number)} values={charts.map((point) => point.gasUsed)} label="gas used" />
        </Section>
      </div>
      <div class="grid two">
        <Section title="Latest blocks with transactions" id="latest-blocks">
          <BlockTable blocks={data.blocks} />
          <p class="more">
            <a href="/blocks">All blocks →</a>
          </p>
        </Section>
        <Section title="Busiest accounts" id="top-accounts">
          <DataTable
            rows={data.topAccounts}
            rowKey={(account) => account.address}
            columns={[accountColumn, countColumn<AccountRow>('Transactions', (account) => account.txCount)]}
          />
          <p class="more">
            <a href="/accounts">All accounts →</a>
          </p>
        </Section>
      </div>
      <Section title="Latest transactions" id="latest-txs">
        <TxTable txs={data.txs} />
        <p class="more">
          <a href="/txs">All transactions →</a>
        </p>
      </Section>
    </>
  )
}
