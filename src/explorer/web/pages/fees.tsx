import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count, ether, units } from '../format.ts'
import { addressColumn } from '../tables.tsx'
import { AddressLink, Failure, Fields, Loading, Section, TxLink } from '../ui.tsx'

type Sides = { eth: string; token: string }
type Source = Sides & { count: number }
type Movement = { txHash: string | null; blockNumber: number; logIndex: number; kind: string; source: string | null; account: string; eth: string; token: string }
type Fees =
  | { deployed: false }
  | {
      deployed: true
      router: string
      routerLabel: string | null
      token: string | null
      treasury: string | null
      split: { burnBps: number; treasuryBps: number } | null
      burn: Sides & { address: string | null }
      launches: Source
      names: Source
      arcadeSkims: Source
      received: Source
      distributions: number
      toTreasury: Sides
      deferred: Sides
      claimable: Sides
      claimed: Source
      recent: Movement[]
    }

type TokenRow = { address: string; symbol: string | null; decimals: number | null }

export function FeesPage() {
  const { data, error } = useApi<Fees>('/fees', 10_000)
  const tokens = useApi<TokenRow[]>('/tokens').data
  // The router's token as the token list knows it; ether and the token stay apart, never summed (docs/explorer.md).
  const token = data?.deployed && data.token ? tokens?.find((row) => row.address.toLowerCase() === data.token!.toLowerCase()) : undefined
  const symbol = token?.symbol ?? 'tokens'
  const decimals = token?.decimals ?? 18
  const both = (sides: Sides) => `${ether(sides.eth)} and ${units(sides.token, decimals)} ${symbol}`
  if (error && !data) return <Failure error={error} what="fee layer" />
  if (!data) return <Loading what="the fee layer" />
  if (!data.deployed) {
    return (
      <Section title="Fee layer" id="fees" main>
        <p id="fees-absent">No fee router is deployed on this chain.</p>
      </Section>
    )
  }
  const percent = (bps: number) => `${(bps / 100).toFixed(bps % 100 === 0 ? 0 : 2)} %`
  return (
    <>
      <Section title="Fee layer" id="fees" main>
        <Fields
          rows={[
            ['Router', <AddressLink address={data.router} label={data.routerLabel} full />],
            ['Treasury', data.treasury ? <AddressLink address={data.treasury} full /> : null],
            ['Split', data.split ? `${percent(data.split.burnBps)} burned, ${percent(data.split.treasuryBps)} to the treasury` : null],
            ['Received', <span id="fees-received">{both(data.received)} in {count(data.received.count)} payments</span>],
            ['From launches', `${both(data.launches)} (${count(data.launches.count)})`],
            ['From names', `${both(data.names)} (${count(data.names.count)})`],
            ['From arcade skims', `${both(data.arcadeSkims)} (${count(data.arcadeSkims.count)})`],
            ['Burned', <span id="fees-burned">{both(data.burn)}</span>],
            ['To the treasury', both(data.toTreasury)],
            ['Waiting to be split', both(data.deferred)],
            ['Claimable by the treasury', both(data.claimable)],
            ['Claimed', `${both(data.claimed)} in ${count(data.claimed.count)} claims`],
          ]}
        />
      </Section>
      <Section title="Recent movements" id="fees-recent">
        <DataTable
          rows={data.recent}
          rowKey={(movement) => `${movement.txHash}:${movement.logIndex}`}
          columns={[
            { head: 'Transaction', cell: (movement) => (movement.txHash ? <TxLink hash={movement.txHash} /> : '–') },
            { head: 'Kind', cell: (movement) => movement.kind },
            { head: 'Source', cell: (movement) => movement.source ?? '–' },
            addressColumn<Movement>('Account', (movement) => movement.account),
            { head: 'Ether', number: true, cell: (movement) => ether(movement.eth) },
            { head: symbol, number: true, cell: (movement) => units(movement.token, decimals) },
          ]}
        />
      </Section>
    </>
  )
}
