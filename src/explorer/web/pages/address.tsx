import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count, ether, short, units } from '../format.ts'
import { TokenTransferTable, TxTable, ageColumn, txColumn, type TokenTransferRow } from '../tables.tsx'
import { AddressLink, Failure, Fields, Loading, PAGE_ROWS, Section, TxLink, Verified, offsetOf } from '../ui.tsx'
import type { TxRow } from '../types.ts'
import type { ContractAnswer } from '../../../answers/contract.ts'
import { ContractTabs, CONTRACT_TABS, MatchWords, type ContractTab } from './contract.tsx'
import { ItemImage, type Metadata } from './nfts.tsx'
import { TokenLogo, labelText, type LabelValue } from './tokens.tsx'

type Holding = { token: string; name: string | null; symbol: string | null; decimals: number | null; logoURI: string | null; verified: boolean; balance: string }
type NftHolding = { token: string; tokenLabel: string | null; standard: string; tokenId: string; amount: string; metadata: Metadata | null }
type Transfer = TokenTransferRow & { txHash: string; blockNumber: number; timestamp: number; standard: string; tokenId?: string }
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
  transactions: TxRow[]
  tokenTransfers: Transfer[]
  nftTransfers: Transfer[]
}

export function AddressPage() {
  const { params, query } = useRoute()
  const offset = offsetOf(query)
  const { data, error } = useApi<Address>(`/address/${encodeURIComponent(params.address ?? '')}?limit=${PAGE_ROWS}&offset=${offset}`)
  // What the stack knows of a contract's code: asked once it is known to be a contract.
  const known = useApi<ContractAnswer>(data?.contract ? `/address/${data.address}/contract` : null).data
  if (error) return <Failure error={error} what="address" />
  if (!data) return <Loading what="the address" />
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
            columns={[
              {
                head: 'Token',
                cell: (token) => (
                  <>
                    <TokenLogo address={token.token} logoURI={token.logoURI} />
                    <a href={`/token/${token.token}`}>{token.symbol ?? token.name ?? token.token}</a>
                    <Verified verified={token.verified} />
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
      <Section title="Transactions" id="address-txs">
        <TxTable txs={data.transactions} empty="No transactions." pager={{ base, offset, limit: PAGE_ROWS }} />
      </Section>
      {data.tokenTransfers.length > 0 ? (
        <Section title="Token transfers" id="address-transfers">
          <TokenTransferTable
            transfers={data.tokenTransfers}
            rowKey={(transfer) => `${transfer.txHash}:${transfer.logIndex}`}
            lead={[txColumn<Transfer>((transfer) => transfer.txHash), ageColumn<Transfer>((transfer) => transfer.timestamp)]}
          />
        </Section>
      ) : null}
    </>
  )
}
