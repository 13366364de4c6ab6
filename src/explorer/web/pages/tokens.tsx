import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { useApi } from '../api.ts'
import { count, units } from '../format.ts'
import { DataTable } from '../dataTable.tsx'
import { TxTable, countColumn } from '../tables.tsx'
import { AddressLink, Failure, Fields, Loading, Section, TxLink, Verified, WhenLoaded, offsetOf } from '../ui.tsx'
import { ListTabs, TOKEN_LISTS, TokenListPanel } from './lists.tsx'
import type { TxRow } from '../types.ts'
import '../tokens.css'

/** An entry of `/api/tokens`. */
export type TokenEntry = {
  address: string
  name: string | null
  symbol: string | null
  decimals: number | null
  totalSupply: string | null
  transfers: number
  native: boolean
  verified: boolean
  logoURI: string | null
  tags: string[]
  label: string | null
  probe: { name: string | null; symbol: string | null; decimals: number | null } | null
  /** A pair's liquidity token: the pair's name (`BX/WETH · V2`), which tells it from every other pair's. */
  pool?: string | null
}

/** What the token page reads of `/api/address/{address}`: the contract beside the token. */
type Contract = {
  address: string
  creator: { address: string; label: string | null; txHash: string } | null
  counts: { transactions: number }
  transactions: TxRow[]
}

/** Some answers give a label as its name, others as the registry's whole entry. */
export type LabelValue = string | { name: string } | null | undefined
export const labelText = (label: LabelValue): string | null => (label === null || label === undefined ? null : typeof label === 'string' ? label : label.name)

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** A supply or balance in the token's own units; raw base units when its decimals are unknown. */
export const tokenAmount = (amount: string | null, decimals: number | null): string => (amount === null ? '–' : decimals === null ? count(amount) : units(amount, decimals))

/**
 * The registry's logo, served by this origin's copy of the registry: the `logoURI` itself points
 * elsewhere, and the page may load nothing from another origin. A logo the copy lacks leaves the
 * blank disc rather than a broken image.
 */
export function TokenLogo({ address, logoURI, size = 20 }: { address: string; logoURI: string | null; size?: 20 | 40 }) {
  const [broken, setBroken] = useState(false)
  const large = size > 20 ? ' large' : ''
  if (!logoURI || broken) return <span class={`logo blank${large}`} aria-hidden="true" />
  return <img class={`logo${large}`} src={`/api/tokenlogo/${address}`} alt="" width={size} height={size} loading="lazy" onError={() => setBroken(true)} />
}

export function TokensPage() {
  const loaded = useApi<TokenEntry[]>('/tokens')
  return (
    <Section title="Tokens" id="tokens" main>
      <WhenLoaded loaded={loaded} what="tokens">
        {(tokens) => (
          <DataTable
            rows={tokens}
            rowKey={(token) => token.address}
            row={(token) => ({ 'data-address': token.address })}
            labelledBy="tokens-title"
            empty="No token has moved on this chain yet."
            columns={[
              {
                head: 'Token',
                cell: (token) => (
                  <>
                    <TokenLogo address={token.address} logoURI={token.logoURI} />
                    <a href={`/token/${token.address}`}>{token.name ?? token.symbol ?? token.address}</a>
                    {token.pool ? <span class="muted pool-name"> {token.pool}</span> : null}
                    <Verified verified={token.verified} />
                    {token.native ? <span class="badge" title="the chain's own token">native</span> : null}
                  </>
                ),
              },
              { head: 'Symbol', cell: (token) => token.symbol ?? <span class="muted">–</span> },
              { head: 'Total supply', number: true, cell: (token) => tokenAmount(token.totalSupply, token.decimals) },
              countColumn<TokenEntry>('Transfers', (token) => token.transfers),
            ]}
          />
        )}
      </WhenLoaded>
    </Section>
  )
}

type PoolEntry = { address: string; kind: 'v2' | 'v3'; fee: number | null; tokens: [string, string]; name: string | null }

/** The exchange's pair whose liquidity token this is, and the pairs and pools that trade it. */
function TokenPools({ token }: { token: string }) {
  const { data } = useApi<{ pool: PoolEntry | null; pools: PoolEntry[] }>(`/token/${token}/pools`)
  if (!data || (data.pool === null && data.pools.length === 0)) return null
  const link = (pool: PoolEntry) => (
    <a href={`/exchange/${pool.kind === 'v2' ? 'pair' : 'pool'}/${pool.address}`} data-pool={pool.address}>
      {pool.name ?? pool.address}
    </a>
  )
  return (
    <Section title={data.pool ? 'Liquidity of' : 'Traded in'} id="token-pools">
      {data.pool ? <p id="token-pool">The liquidity token of the pair {link(data.pool)}.</p> : null}
      {data.pools.length > 0 ? (
        <ul class="plain" id="token-pools-list">
          {data.pools.map((pool) => (
            <li key={pool.address}>{link(pool)}</li>
          ))}
        </ul>
      ) : null}
    </Section>
  )
}

export function TokenPage() {
  const { params, query } = useRoute()
  const wanted = params.address ?? ''
  const tab = TOKEN_LISTS.find(([id]) => id === query.list)?.[0] ?? 'holders'
  const offset = offsetOf(query)
  const list = useApi<TokenEntry[]>('/tokens')
  const contract = useApi<Contract>(`/address/${encodeURIComponent(wanted)}?limit=25`)
  // The list holds every token the explorer describes; an address that is not there (or not a
  // token at all) still has its contract shown, from the address answer.
  if (contract.error && !list.data) return <Failure error={contract.error} what="token" />
  if (list.error && !list.data) return <Failure error={list.error} what="token" />
  if (!list.data) return <Loading what="the token" />
  const token = list.data.find((entry) => same(entry.address, wanted)) ?? null
  if (!token) {
    if (contract.error) return <Failure error={contract.error} what="token" />
    return (
      <Section title="Token" id="token" main>
        <p id="token-missing">
          <span class="mono wrap">{wanted}</span> is not among the tokens this explorer lists.{' '}
          {contract.data ? <a href={`/address/${contract.data.address}`}>See the address →</a> : null}
        </p>
      </Section>
    )
  }
  const title = token.name ?? token.symbol ?? token.address
  const probeDiffers = token.probe !== null && token.verified && (token.probe.symbol !== token.symbol || token.probe.name !== token.name || token.probe.decimals !== token.decimals)
  return (
    <>
      <section class="card" id="token" aria-labelledby="token-title">
        <div class="token-head">
          <TokenLogo address={token.address} logoURI={token.logoURI} size={40} />
          <h1 id="token-title">
            {title}
            {token.symbol && token.symbol !== title ? <span class="muted"> ({token.symbol})</span> : null}
            {token.pool ? <span class="muted" id="token-pool-name"> {token.pool}</span> : null}
          </h1>
          <Verified verified={token.verified} />
          {token.native ? <span class="badge">native</span> : null}
        </div>
        <Fields
          rows={[
            ['Address', <AddressLink address={token.address} full />],
            ['Symbol', <span id="token-symbol">{token.symbol ?? '–'}</span>],
            ['Decimals', <span id="token-decimals">{token.decimals === null ? 'unknown' : String(token.decimals)}</span>],
            [
              'Total supply',
              <span id="token-supply">
                {tokenAmount(token.totalSupply, token.decimals)}
                {token.symbol && token.totalSupply !== null ? ` ${token.symbol}` : ''}
              </span>,
            ],
            [
              'Registry',
              <span id="token-verified">
                {token.verified ? (
                  <>
                    <Verified verified /> listed in the token registry
                  </>
                ) : (
                  <span class="muted">not listed in the token registry</span>
                )}
              </span>,
            ],
            ['Label', token.label ? <span class="label" id="token-label">{token.label}</span> : null],
            ['Tags', token.tags.length > 0 ? <span class="token-tags">{token.tags.map((tag) => <span key={tag} class="badge">{tag}</span>)}</span> : null],
            // The registry's entry wins over what the contract says; a difference is worth seeing.
            ['Contract says', probeDiffers && token.probe ? `${token.probe.name ?? '–'} (${token.probe.symbol ?? '–'}), ${token.probe.decimals ?? '?'} decimals` : null],
            ['Transfers', <span id="token-transfers">{count(token.transfers)}</span>],
            ['Created by', contract.data?.creator ? <><AddressLink address={contract.data.creator.address} label={contract.data.creator.label} /> in <TxLink hash={contract.data.creator.txHash} /></> : null],
          ]}
        />
      </section>
      <TokenPools token={token.address} />
      <section class="card" id="token-lists" aria-labelledby="token-lists-title">
        <h2 id="token-lists-title" class="visually-hidden">Holders and transfers</h2>
        <ListTabs tabs={TOKEN_LISTS} current={tab} base={`/token/${token.address}`} label="token lists" counts={{ transfers: token.transfers }} />
        <div role="tabpanel" aria-labelledby={`list-${tab}`} id={`panel-${tab}`}>
          <TokenListPanel
            key={`${tab}:${offset}`}
            token={token.address}
            list={tab}
            offset={offset}
            totalSupply={token.totalSupply}
            amount={(value) => tokenAmount(value, token.decimals)}
          />
        </div>
      </section>
      <Section title="Recent transactions with the contract" id="token-txs">
        {contract.error && !contract.data ? (
          <Failure error={contract.error} what="contract's transactions" />
        ) : !contract.data ? (
          <Loading what="transactions" />
        ) : contract.data.transactions.length === 0 ? (
          <p class="muted">Nobody has called this contract.</p>
        ) : (
          <>
            <TxTable txs={contract.data.transactions} />
            <p class="more">
              <a href={`/address/${token.address}`}>All {count(contract.data.counts.transactions)} transactions on the address page →</a>
            </p>
          </>
        )}
      </Section>
    </>
  )
}
