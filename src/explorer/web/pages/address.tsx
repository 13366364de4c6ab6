import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { count, ether, short, units } from '../format.ts'
import { AddressLink, Failure, Fields, Loading, Pager, Section, Time, TxLink } from '../ui.tsx'
import type { TxRow } from '../types.ts'
import { offsetOf } from './blocks.tsx'
import { ItemImage, type Metadata } from './nfts.tsx'
import { TxTable } from './home.tsx'

const PAGE = 25

type Holding = { token: string; name: string | null; symbol: string | null; decimals: number | null; logoURI: string | null; verified: boolean; balance: string }
type NftHolding = { token: string; tokenLabel: string | null; standard: string; tokenId: string; amount: string; metadata: Metadata | null }
type Transfer = { txHash: string; blockNumber: number; timestamp: number; logIndex: number; token: string; tokenLabel: string | null; standard: string; from: string; to: string; value?: string; amount?: string; tokenId?: string; decimals?: number | null; symbol?: string | null }
export type NameRecord = { name: string; label: string; available: boolean | null; reserved: boolean | null; owner: string | null; resolved: string | null; expires: number | null; price: string | null; twitter: string | null; website: string | null; description: string | null }

type Address = {
  address: string
  label: { name: string } | string | null
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

/** The label of a tag, whichever shape the answer gives it. */
const labelText = (label: Address['label']) => (label === null ? null : typeof label === 'string' ? label : label.name)

export function AddressPage() {
  const { params, query } = useRoute()
  const offset = offsetOf(query)
  const { data, error } = useApi<Address>(`/address/${encodeURIComponent(params.address ?? '')}?limit=${PAGE}&offset=${offset}`)
  if (error) return <Failure error={error} what="address" />
  if (!data) return <Loading what="the address" />
  const label = labelText(data.label)
  const base = `/address/${data.address}`
  return (
    <>
      <Section title={data.contract ? 'Contract' : 'Account'} id="address" main>
        <Fields
          rows={[
            ['Address', <span class="mono wrap" id="address-value">{data.address}</span>],
            ['Label', label ? <span class="label" id="address-label">{label}</span> : null],
            ['Name', data.name ? <a href={`/name/${data.name.label}`} id="address-name">{data.name.name}</a> : null],
            ['Balance', <span id="address-balance">{ether(data.balance)}</span>],
            ['Nonce', data.nonce === null ? '–' : count(data.nonce)],
            ['Transactions', `${count(data.counts.transactions)} (${count(data.counts.sent)} sent, ${count(data.counts.received)} received)`],
            ['Bytecode', data.contract ? `${count(data.bytecodeSize)} bytes` : null],
            ['Created by', data.creator ? <><AddressLink address={data.creator.address} label={data.creator.label} /> in <TxLink hash={data.creator.txHash} /></> : null],
          ]}
        />
      </Section>
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
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>Token</th>
                  <th class="number">Balance</th>
                </tr>
              </thead>
              <tbody>
                {data.tokens.map((token) => (
                  <tr key={token.token}>
                    <td>
                      {token.logoURI ? <img class="logo" src={`/api/tokenlogo/${token.token}`} alt="" width={20} height={20} loading="lazy" /> : <span class="logo blank" aria-hidden="true" />}
                      <a href={`/token/${token.token}`}>{token.symbol ?? token.name ?? token.token}</a>
                      {token.verified ? <span class="badge good" title="listed in the token registry">verified</span> : null}
                    </td>
                    <td class="number">{token.decimals === null ? token.balance : units(token.balance, token.decimals)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
        {data.transactions.length === 0 ? <p class="muted">No transactions.</p> : <TxTable txs={data.transactions} />}
        <Pager base={base} offset={offset} limit={PAGE} shown={data.transactions.length} />
      </Section>
      {data.tokenTransfers.length > 0 ? (
        <Section title="Token transfers" id="address-transfers">
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th>Transaction</th>
                  <th>Age</th>
                  <th>Token</th>
                  <th>From</th>
                  <th>To</th>
                  <th class="number">Amount</th>
                </tr>
              </thead>
              <tbody>
                {data.tokenTransfers.map((transfer) => (
                  <tr key={`${transfer.txHash}:${transfer.logIndex}`}>
                    <td>
                      <TxLink hash={transfer.txHash} />
                    </td>
                    <td>
                      <Time seconds={transfer.timestamp} />
                    </td>
                    <td>
                      <a href={`/token/${transfer.token}`} title={transfer.token}>
                        {transfer.symbol ?? transfer.tokenLabel ?? short(transfer.token)}
                      </a>
                    </td>
                    <td>
                      <AddressLink address={transfer.from} />
                    </td>
                    <td>
                      <AddressLink address={transfer.to} />
                    </td>
                    <td class="number">{transfer.value !== undefined && typeof transfer.decimals === 'number' ? units(transfer.value, transfer.decimals) : (transfer.value ?? transfer.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ) : null}
    </>
  )
}
