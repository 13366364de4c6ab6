import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count } from '../format.ts'
import { accountColumn, countColumn } from '../tables.tsx'
import { PAGE_ROWS, Pager, Section, WhenLoaded, offsetOf } from '../ui.tsx'
import type { AccountRow } from '../types.ts'

export function AccountsPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const loaded = useApi<{ total: number; accounts: AccountRow[] }>(`/accounts?limit=${PAGE_ROWS}&offset=${offset}`)
  const { data } = loaded
  return (
    <Section title={data ? `Accounts by transactions (${count(data.total)})` : 'Accounts'} id="accounts" main>
      <WhenLoaded loaded={loaded} what="accounts">
        {({ accounts }) => (
          <DataTable
            rows={accounts}
            rowKey={(account) => account.address}
            columns={[
              { head: 'Rank', number: true, cell: (_account, index) => offset + index + 1 },
              accountColumn,
              countColumn<AccountRow>('Transactions', (account) => account.txCount),
              countColumn<AccountRow>('Sent', (account) => account.sent),
              countColumn<AccountRow>('Received', (account) => account.received),
            ]}
          />
        )}
      </WhenLoaded>
      <Pager base="/accounts" offset={offset} limit={PAGE_ROWS} shown={data?.accounts.length ?? 0} />
    </Section>
  )
}
