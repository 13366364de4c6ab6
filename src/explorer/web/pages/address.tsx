import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count, ether, short, units } from '../format.ts'
import { AddressLink, Failure, Fields, Loading, Section, TxLink, Verified, offsetOf } from '../ui.tsx'
import type { ContractAnswer } from '../../../answers/contract.ts'
import { ContractTabs, CONTRACT_TABS, MatchWords, type ContractTab } from './contractWords.tsx'
import { ADDRESS_LISTS, AddressListPanel, ListTabs } from './lists.tsx'
import { ItemImage, type Metadata } from './nfts.tsx'
import { TokenLogo, labelText, type LabelValue } from './tokens.tsx'

type Holding = { token: string; name: string | null; symbol: string | null; decimals: number | null; logoURI: string | null; verified: boolean; balance: string; pool?: string | null }
type NftHolding = { token: string; tokenLabel: string | null; standard: string; tokenId: string; amount: string; metadata: Metadata | null }
export type NameRecord = { name: string; label: string; available: boolean | null; reserved: boolean | null; owner: string | null; resolved: string | null; expires: number | null; price: string | null; twitter: string | null; website: string | null; description: string | null }

type Address = {
  address: string
  label: LabelValue
  balance: string | null
  nonce: number | null
  contract: boolean
  bytecodeSize: number
  creator: { address: string; label: string | null; txHash: string } | null
  createdContracts: Array<{ address: string; label: string | null; txHash: string }>
  counts: { transactions: number; sent: number; received: number; tokenTransfers: number; nftTransfers: number }
  tokens: Holding[]
  nfts: NftHolding[]
  name: NameRecord | null
  /** The standard of the token it is, when it is one; the pair or pool it is, when it is one. */
  token?: 'erc20' | 'erc721' | 'erc1155' | null
  pool?: { kind: 'v2' | 'v3'; name: string | null } | null
}

export function AddressPage() {
  const { params, query } = useRoute()
  const offset = offsetOf(query)
  // The lists come from their own routes (the tabs below): the address's answer is asked for one row of each.
  const { data, error } = useApi<Address>(`/address/${encodeURIComponent(params.address ?? '')}?limit=1`)
  const list = ADDRESS_LISTS.find(([id]) => id === query.list)?.[0] ?? 'transactions'
  // What the stack knows of a contract's code: asked once it is known to be a contract.
  const known = useApi<ContractAnswer>(data?.contract ? `/address/${data.address}/contract` : null).data
  // The lists are asked at once, beside the address's own answer, not after it.
  const wanted = params.address ?? ''
  const lists = (
    <section class="card" id="address-lists" aria-labelledby="address-lists-title" key="lists">
      <h2 id="address-lists-title" class="visually-hidden">Activity</h2>
      <ListTabs
        tabs={ADDRESS_LISTS}
        current={list}
        base={`/address/${wanted}`}
        label="activity"
        counts={data ? { transactions: data.counts.transactions, 'token-transfers': data.counts.tokenTransfers, 'nft-transfers': data.counts.nftTransfers } : {}}
      />
      <div role="tabpanel" aria-labelledby={`list-${list}`} id={`panel-${list}`}>
        <div id={list === 'transactions' ? 'address-txs' : undefined}>
          <AddressListPanel key={`${list}:${offset}`} address={wanted} list={list} offset={offset} />
        </div>
      </div>
    </section>
  )
  if (error) return <Failure error={error} what="address" />
  if (!data) {
    return (
      <>
        <Loading what="the address" />
        {lists}
      </>
    )
  }
  const label = labelText(data.label)
  const base = `/address/${data.address}`
  const tab = CONTRACT_TABS.find(([id]) => id === query.tab)?.[0] ?? ('code' as ContractTab)
  // Tabs for a contract whose ABI is known, or a proxy whose implementation's is.
  const verified = known?.abi || known?.proxy?.abi ? known : null
  return (
    <>
      <Section title={data.contract ? 'Contract' : 'Account'} id="address" main tab={`${label ?? data.name?.name ?? short(data.address)} · ${data.contract ? 'Contract' : 'Account'}`}>
        <Fields
          rows={[
            ['Address', <span class="mono wrap" id="address-value">{data.address}</span>],
            ['Label', label ? <span class="label" id="address-label">{label}</span> : null],
            ['Name', data.name ? <a href={`/name/${data.name.label}`} id="address-name">{data.name.name}</a> : null],
            ['Balance', <span id="address-balance">{ether(data.balance)}</span>],
            ['Nonce', data.nonce === null ? '–' : count(data.nonce)],
            ['Transactions', `${count(data.counts.transactions)} (${count(data.counts.sent)} sent, ${count(data.counts.received)} received)`],
            ['Bytecode', data.contract ? `${count(data.bytecodeSize)} bytes` : null],
            ['Code', verified?.name ? <span id="address-match">{verified.name} · <MatchWords match={verified.match} by={verified.by} /></span> : null],
            ['Proxy to', verified?.proxy ? <span id="address-proxy"><AddressLink address={verified.proxy.implementation} />{verified.proxy.name ? ` (${verified.proxy.name})` : ''}</span> : null],
            ['Created by', data.creator ? <><AddressLink address={data.creator.address} label={data.creator.label} /> in <TxLink hash={data.creator.txHash} /></> : null],
            ['Token', data.token ? <a id="address-token" href={data.token === 'erc20' ? `/token/${data.address}` : `/nft/${data.address}`}>{data.token === 'erc20' ? 'Token page →' : 'Collection page →'}</a> : null],
            ['Pair', data.pool ? <a id="address-pool" href={`/exchange/${data.pool.kind === 'v2' ? 'pair' : 'pool'}/${data.address}`}>{data.pool.name ?? 'Exchange page'} →</a> : null],
          ]}
        />
      </Section>
      {verified ? <ContractTabs info={verified} tab={tab} base={base} /> : null}
      {data.createdContracts.length > 0 ? (
        <Section title="Contracts it created" id="address-created">
          <ul class="plain">
            {data.createdContracts.map((created) => (
              <li key={created.address}>
                <AddressLink address={created.address} label={created.label} full /> in <TxLink hash={created.txHash} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {data.tokens.length > 0 ? (
        <Section title="Tokens" id="address-tokens">
          <DataTable
            rows={data.tokens}
            rowKey={(token) => token.token}
            row={(token) => ({ 'data-token': token.token })}
            columns={[
              {
                head: 'Token',
                cell: (token) => (
                  <>
                    <TokenLogo address={token.token} logoURI={token.logoURI} />
                    <a href={`/token/${token.token}`}>{token.symbol ?? token.name ?? token.token}</a>
                    <Verified verified={token.verified} />
                    {token.pool ? <span class="muted pool-name"> {token.pool}</span> : null}
                  </>
                ),
              },
              { head: 'Balance', number: true, cell: (token) => (token.decimals === null ? token.balance : units(token.balance, token.decimals)) },
            ]}
          />
        </Section>
      ) : null}
      {data.nfts.length > 0 ? (
        <Section title="NFTs" id="address-nfts">
          <ul class="nft-items">
            {data.nfts.map((nft) => {
              const name = typeof nft.metadata?.name === 'string' ? nft.metadata.name : `${nft.tokenLabel ?? nft.token} #${nft.tokenId}`
              return (
                <li key={`${nft.token}:${nft.tokenId}`}>
                  <a class="nft-card" href={`/nft/${nft.token}/${nft.tokenId}`}>
                    <ItemImage metadata={nft.metadata} tokenId={nft.tokenId} alt={name} />
                    <span class="nft-name" title={name}>{name}</span>
                  </a>
                  <span class="nft-owner muted">
                    {nft.tokenLabel ?? nft.token}
                    {nft.amount !== '1' ? ` × ${nft.amount}` : ''}
                  </span>
                </li>
              )
            })}
          </ul>
        </Section>
      ) : null}
      {lists}
    </>
  )
}
