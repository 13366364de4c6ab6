import { count, ether, short, units } from './format.ts'
import { DataTable, type Column, type DataTableProps } from './dataTable.tsx'
import type { AccountRow, BlockRow, MiniRow, TokenTransfer, TxRow } from './types.ts'
import { AddressLink, BlockLink, Time, TxLink, Verified } from './ui.tsx'

// The columns and the tables more than one page shows: a page names the table and says only
// what differs (a column left out, its empty line, its pager).

export const txColumn = <T,>(hash: (row: T) => string): Column<T> => ({ head: 'Transaction', cell: (row) => <TxLink hash={hash(row)} /> })

export const blockColumn = <T,>(number: (row: T) => number): Column<T> => ({ head: 'Block', cell: (row) => <BlockLink number={number(row)} /> })

/** A time as "12 s ago" (the date on hover), headed `head`. */
export const ageColumn = <T,>(seconds: (row: T) => number, head = 'Age'): Column<T> => ({ head, cell: (row) => <Time seconds={seconds(row)} /> })

export const addressColumn = <T,>(head: string, address: (row: T) => string | null, label?: (row: T) => string | null): Column<T> => ({
  head,
  cell: (row) => <AddressLink address={address(row)} label={label?.(row)} />,
})

/** A figure written with thousands separators, right-aligned. */
export const countColumn = <T,>(head: string, value: (row: T) => number | string): Column<T> => ({ head, number: true, cell: (row) => count(value(row)) })

/** An account by its label or name, marked when it is a contract. */
export const accountColumn: Column<AccountRow> = {
  head: 'Account',
  cell: (account) => (
    <>
      <AddressLink address={account.address} label={account.label} />
      {account.contract ? <span class="badge">contract</span> : null}
    </>
  ),
}

type Rows<T> = Pick<DataTableProps<T>, 'empty' | 'pager'>

/** Transactions, newest first: a failed one dimmed and marked. */
export function TxTable({ txs, showBlock = true, ...rest }: { txs: TxRow[]; showBlock?: boolean } & Rows<TxRow>) {
  return (
    <DataTable
      {...rest}
      rows={txs}
      rowKey={(tx) => tx.hash}
      row={(tx) => ({ class: tx.success ? undefined : 'failed' })}
      columns={[
        {
          head: 'Transaction',
          cell: (tx) => (
            <>
              <TxLink hash={tx.hash} />
              {tx.success ? null : <span class="badge bad">failed</span>}
            </>
          ),
        },
        { ...blockColumn<TxRow>((tx) => tx.blockNumber), show: showBlock },
        { head: 'Method', cell: (tx) => (tx.method ? <code>{tx.method}</code> : <span class="muted">transfer</span>) },
        addressColumn<TxRow>('From', (tx) => tx.from, (tx) => tx.fromLabel),
        {
          head: 'To',
          cell: (tx) =>
            tx.to ? (
              <AddressLink address={tx.to} label={tx.toLabel} />
            ) : tx.created ? (
              <>
                new <AddressLink address={tx.created} />
              </>
            ) : (
              '–'
            ),
        },
        { head: 'Value', number: true, cell: (tx) => ether(tx.value) },
      ]}
    />
  )
}

export function BlockTable({ blocks }: { blocks: BlockRow[] }) {
  return (
    <DataTable
      rows={blocks}
      rowKey={(block) => block.number}
      columns={[
        blockColumn<BlockRow>((block) => block.number),
        ageColumn<BlockRow>((block) => block.timestamp),
        countColumn<BlockRow>('Transactions', (block) => block.txCount),
        countColumn<BlockRow>('Gas used', (block) => block.gasUsed),
      ]}
    />
  )
}

/** Microseconds (mini-block times) as whole seconds, for the time components. */
export const miniSeconds = (microseconds: number) => Math.floor(microseconds / 1e6)

/** Mini-blocks; inside a block's page without the block, their time headed `timeHead`. */
export function MiniTable({ minis, showBlock = true, timeHead = 'Age' }: { minis: MiniRow[]; showBlock?: boolean; timeHead?: string }) {
  return (
    <DataTable
      rows={minis}
      rowKey={(mini) => mini.hash}
      columns={[
        { head: 'Mini-block', cell: (mini) => <a href={`/mini/${mini.number}`}>{count(mini.number)}</a> },
        { ...blockColumn<MiniRow>((mini) => mini.blockNumber), show: showBlock },
        { head: 'Hash', class: 'mono', title: (mini) => mini.hash, cell: (mini) => <a href={`/mini/${mini.hash}`}>{short(mini.hash)}</a> },
        ageColumn<MiniRow>((mini) => miniSeconds(mini.timestamp_us), timeHead),
        countColumn<MiniRow>('Transactions', (mini) => mini.txCount),
      ]}
    />
  )
}

/** A token transfer as the transaction and address answers give it (an address's may be of an NFT: an `amount`, no `value`). */
export type TokenTransferRow = Omit<TokenTransfer, 'value'> & { value?: string; amount?: string }

/** The amount in the token's units once its decimals are known, else as the answer gives it. */
const transferAmount = (transfer: TokenTransferRow) =>
  transfer.value !== undefined && typeof transfer.decimals === 'number' ? units(transfer.value, transfer.decimals) : (transfer.value ?? transfer.amount)

/** Token transfers; `lead` are the columns before the token (an address's list says which transaction and when). */
export function TokenTransferTable<T extends TokenTransferRow>({ transfers, rowKey, lead = [] }: { transfers: T[]; rowKey: (transfer: T) => string | number; lead?: Array<Column<T>> }) {
  return (
    <DataTable
      rows={transfers}
      rowKey={rowKey}
      columns={[
        ...lead,
        {
          head: 'Token',
          cell: (transfer) => (
            <>
              <a href={`/token/${transfer.token}`} title={transfer.token}>
                {transfer.symbol ?? transfer.tokenLabel ?? short(transfer.token)}
              </a>
              <Verified verified={transfer.verified === true} />
            </>
          ),
        },
        addressColumn<T>('From', (transfer) => transfer.from),
        addressColumn<T>('To', (transfer) => transfer.to),
        { head: 'Amount', number: true, cell: transferAmount },
      ]}
    />
  )
}
