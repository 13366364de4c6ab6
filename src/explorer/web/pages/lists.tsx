import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count, ether, short, units } from '../format.ts'
import { addressColumn, ageColumn, blockColumn, txColumn, type TokenTransferRow } from '../tables.tsx'
import { AddressLink, PAGE_ROWS, TxLink, WhenLoaded } from '../ui.tsx'
import type { TxRow } from '../types.ts'
import '../lists.css'

// An address's lists as tabs (transactions, token transfers, NFT transfers, internal
// transactions) and a token's (holders, transfers): each tab reads its own list route and pages
// on its own (docs/explorer.md).

export type Direction = 'in' | 'out' | 'self'
type AddressTx = TxRow & { direction: Direction }
type Moved = TokenTransferRow & { txHash: string; blockNumber: number; timestamp: number; standard: string; tokenId?: string; batchIndex?: number; amount?: string; direction?: Direction }

/** An ERC-20 amount in its token's units once its decimals are known; an NFT's count as it is. */
const transferAmount = (transfer: Moved) =>
  transfer.value !== undefined ? (typeof transfer.decimals === 'number' ? units(transfer.value, transfer.decimals) : count(transfer.value)) : (transfer.amount ?? '–')
type Internal = { txHash: string; blockNumber: number; timestamp: number; traceId: string; type: string; from: string; fromLabel: string | null; to: string | null; toLabel: string | null; created: string | null; value: string; error: string | null; direction: Direction }

export const ADDRESS_LISTS = [
  ['transactions', 'Transactions'],
  ['token-transfers', 'Token transfers'],
  ['nft-transfers', 'NFT transfers'],
  ['internal', 'Internal transactions'],
] as const
export type AddressList = (typeof ADDRESS_LISTS)[number][0]

/** In, out or to itself, as a short badge. */
export function DirectionBadge({ direction }: { direction: Direction | undefined }) {
  if (!direction) return null
  return <span class={direction === 'in' ? 'badge good dir' : 'badge dir'}>{direction === 'self' ? 'self' : direction === 'in' ? 'in' : 'out'}</span>
}

const directionColumn = <T extends { direction?: Direction }>() => ({ head: 'In/out', cell: (row: T) => <DirectionBadge direction={row.direction} /> })

/** Tabs over lists, each a link that keeps the page and starts its list from the top. */
export function ListTabs<L extends string>({ tabs, current, base, label, counts = {} }: { tabs: ReadonlyArray<readonly [L, string]>; current: L; base: string; label: string; counts?: Partial<Record<L, number>> }) {
  return (
    <nav class="tabs" role="tablist" aria-label={label}>
      {tabs.map(([id, name]) => (
        <a key={id} id={`list-${id}`} role="tab" href={`${base}?list=${id}`} aria-selected={current === id} class={current === id ? 'tab current' : 'tab'}>
          {name}
          {counts[id] !== undefined ? <span class="muted"> {count(counts[id]!)}</span> : null}
        </a>
      ))}
    </nav>
  )
}

/** A form that downloads a list as CSV, over a range of days (both ends optional). */
function CsvExport({ address, list }: { address: string; list: 'transactions' | 'token-transfers' }) {
  return (
    <form class="csv-export" method="get" action={`/address/${address}/${list}.csv`} id="csv-export">
      <label>
        From <input type="date" name="from" />
      </label>
      <label>
        to <input type="date" name="to" />
      </label>
      <button type="submit">Download CSV</button>
      <a href={`/address/${address}/${list}.csv`} download id="csv-all">
        all (up to 10,000 rows)
      </a>
    </form>
  )
}

/** The list `list` of `address`, its page at `offset`. */
export function AddressListPanel({ address, list, offset }: { address: string; list: AddressList; offset: number }) {
  const path = `/address/${address}/${list}?limit=${PAGE_ROWS}&offset=${offset}`
  const pager = { base: `/address/${address}?list=${list}`, offset, limit: PAGE_ROWS }
  if (list === 'transactions') {
    return (
      <>
        <WhenLoaded loaded={useApi<{ total: number; transactions: AddressTx[] }>(path)} what="transactions">
          {(data) => (
            <DataTable
              rows={data.transactions}
              rowKey={(tx) => tx.hash}
              row={(tx) => ({ class: tx.success ? undefined : 'failed', 'data-hash': tx.hash })}
              empty="No transactions."
              pager={pager}
              columns={[
                { head: 'Transaction', cell: (tx) => <><TxLink hash={tx.hash} />{tx.success ? null : <span class="badge bad">failed</span>}</> },
                blockColumn<AddressTx>((tx) => tx.blockNumber),
                ageColumn<AddressTx>((tx) => tx.timestamp),
                { head: 'Method', cell: (tx) => (tx.method ? <code>{tx.method}</code> : <span class="muted">transfer</span>) },
                addressColumn<AddressTx>('From', (tx) => tx.from, (tx) => tx.fromLabel),
                directionColumn<AddressTx>(),
                { head: 'To', cell: (tx) => (tx.to ? <AddressLink address={tx.to} label={tx.toLabel} /> : tx.created ? <>new <AddressLink address={tx.created} /></> : '–') },
                { head: 'Value', number: true, cell: (tx) => ether(tx.value) },
                { head: 'Fee', number: true, cell: (tx) => ether(tx.fee) },
              ]}
            />
          )}
        </WhenLoaded>
        <CsvExport address={address} list="transactions" />
      </>
    )
  }
  if (list === 'token-transfers' || list === 'nft-transfers') {
    return (
      <>
        <WhenLoaded loaded={useApi<{ total: number; transfers: Moved[] }>(path)} what="transfers">
          {(data) => (
            <DataTable
              rows={data.transfers}
              rowKey={(transfer) => `${transfer.txHash}:${transfer.logIndex}:${transfer.batchIndex ?? 0}`}
              empty={list === 'token-transfers' ? 'No token transfers.' : 'No NFT transfers.'}
              pager={pager}
              columns={[
                txColumn<Moved>((transfer) => transfer.txHash),
                ageColumn<Moved>((transfer) => transfer.timestamp),
                {
                  head: list === 'token-transfers' ? 'Token' : 'Collection',
                  cell: (transfer) => (
                    <a href={list === 'token-transfers' ? `/token/${transfer.token}` : `/nft/${transfer.token}`} title={transfer.token}>
                      {transfer.symbol ?? transfer.tokenLabel ?? short(transfer.token)}
                    </a>
                  ),
                },
                { head: 'Item', show: list === 'nft-transfers', cell: (transfer) => <a href={`/nft/${transfer.token}/${transfer.tokenId}`}>#{transfer.tokenId}</a> },
                addressColumn<Moved>('From', (transfer) => transfer.from),
                directionColumn<Moved>(),
                addressColumn<Moved>('To', (transfer) => transfer.to),
                { head: 'Amount', number: true, cell: (transfer) => transferAmount(transfer) },
              ]}
            />
          )}
        </WhenLoaded>
        {list === 'token-transfers' ? <CsvExport address={address} list="token-transfers" /> : null}
      </>
    )
  }
  return (
    <WhenLoaded loaded={useApi<{ calls: Internal[] }>(path)} what="internal transactions">
      {(data) => (
        <DataTable
          rows={data.calls}
          rowKey={(call) => `${call.txHash}:${call.traceId}`}
          row={(call) => ({ class: call.error ? 'failed' : undefined })}
          empty="No internal transactions."
          pager={pager}
          columns={[
            txColumn<Internal>((call) => call.txHash),
            ageColumn<Internal>((call) => call.timestamp),
            { head: 'Type', cell: (call) => <><code>{call.type}</code>{call.error ? <span class="badge bad" title={call.error}>failed</span> : null}</> },
            addressColumn<Internal>('From', (call) => call.from, (call) => call.fromLabel),
            directionColumn<Internal>(),
            { head: 'To', cell: (call) => (call.to ? <AddressLink address={call.to} label={call.toLabel} /> : call.created ? <>new <AddressLink address={call.created} /></> : '–') },
            { head: 'Value', number: true, cell: (call) => ether(call.value) },
          ]}
        />
      )}
    </WhenLoaded>
  )
}

type Holder = { address: string; label: string | null; balance: string }

/** `part` of `whole` as a percentage with two decimals, in integers ("12.34%"); "–" when the whole is unknown or zero. */
export function share(part: string, whole: string | null): string {
  if (whole === null || BigInt(whole) === 0n) return '–'
  const basis = (BigInt(part) * 10_000n) / BigInt(whole)
  return `${basis / 100n}.${String(basis % 100n).padStart(2, '0')}%`
}

export const TOKEN_LISTS = [
  ['holders', 'Holders'],
  ['transfers', 'Transfers'],
] as const
export type TokenList = (typeof TOKEN_LISTS)[number][0]

/** A token's holders (rank, balance in its units, share of the supply) or its transfers, a page at `offset`. */
export function TokenListPanel({ token, list, offset, totalSupply, amount }: { token: string; list: TokenList; offset: number; totalSupply: string | null; amount: (value: string) => string }) {
  const pager = { base: `/token/${token}?list=${list}`, offset, limit: PAGE_ROWS }
  const path = `/token/${token}/${list}?limit=${PAGE_ROWS}&offset=${offset}`
  if (list === 'holders') {
    return (
      <WhenLoaded loaded={useApi<{ total: number; holders: Holder[] }>(path)} what="holders">
        {(data) => (
          <DataTable
            rows={data.holders}
            rowKey={(holder) => holder.address}
            row={(holder) => ({ 'data-address': holder.address })}
            empty="Nobody holds this token."
            pager={pager}
            columns={[
              { head: 'Rank', number: true, cell: (_holder, index) => count(offset + index + 1) },
              addressColumn<Holder>('Holder', (holder) => holder.address, (holder) => holder.label),
              { head: 'Balance', number: true, cell: (holder) => amount(holder.balance) },
              { head: 'Share', number: true, cell: (holder) => share(holder.balance, totalSupply) },
            ]}
          />
        )}
      </WhenLoaded>
    )
  }
  return (
    <WhenLoaded loaded={useApi<{ total: number; transfers: Moved[] }>(path)} what="transfers">
      {(data) => (
        <DataTable
          rows={data.transfers}
          rowKey={(transfer) => `${transfer.txHash}:${transfer.logIndex}:${transfer.tokenId ?? ''}`}
          empty="No transfers."
          pager={pager}
          columns={[
            txColumn<Moved>((transfer) => transfer.txHash),
            ageColumn<Moved>((transfer) => transfer.timestamp),
            addressColumn<Moved>('From', (transfer) => transfer.from),
            addressColumn<Moved>('To', (transfer) => transfer.to),
            { head: 'Amount', number: true, cell: (transfer) => (transfer.value !== undefined ? amount(transfer.value) : (transfer.amount ?? '–')) },
          ]}
        />
      )}
    </WhenLoaded>
  )
}

