import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { count } from '../format.ts'
import { AddressLink, Failure, Loading, Pager, Section } from '../ui.tsx'
import type { AccountRow } from '../types.ts'
import { offsetOf } from './blocks.tsx'

const PAGE = 25

export function AccountsPage() {
  const { query } = useRoute()
  const offset = offsetOf(query)
  const { data, error } = useApi<{ total: number; accounts: AccountRow[] }>(`/accounts?limit=${PAGE}&offset=${offset}`)
  return (
    <Section title={data ? `Accounts by transactions (${count(data.total)})` : 'Accounts'} id="accounts" main>
      {error && !data ? (
        <Failure error={error} what="accounts" />
      ) : !data ? (
        <Loading what="accounts" />
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th class="number">Rank</th>
                <th>Account</th>
                <th class="number">Transactions</th>
                <th class="number">Sent</th>
                <th class="number">Received</th>
              </tr>
            </thead>
            <tbody>
              {data.accounts.map((account, index) => (
                <tr key={account.address}>
                  <td class="number">{offset + index + 1}</td>
                  <td>
                    <AddressLink address={account.address} label={account.label} />
                    {account.contract ? <span class="badge">contract</span> : null}
                  </td>
                  <td class="number">{count(account.txCount)}</td>
                  <td class="number">{count(account.sent)}</td>
                  <td class="number">{count(account.received)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/accounts" offset={offset} limit={PAGE} shown={data?.accounts.length ?? 0} />
    </Section>
  )
}
