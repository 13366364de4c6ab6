import { useApi } from '../api.ts'
import { DataTable } from '../dataTable.tsx'
import { count, ether, units } from '../format.ts'
import { AddressLink, Fields, WhenLoaded } from '../ui.tsx'
import type { AccountChange, TxState } from '../types.ts'

/** Why the node's part is missing, in words: the tab then has the token changes only. */
const MISSING: Record<NonNullable<TxState['accountsMissing']>, string> = {
  unsupported: "The node gives no state trace (it has no debug namespace): only the token balance changes, read from the transaction's transfer logs, are shown.",
  unreachable: "The node cannot be reached just now: only the token balance changes, read from the transaction's transfer logs, are shown.",
  failed: "The node could not trace this transaction: only the token balance changes, read from the transaction's transfer logs, are shown.",
}

/** A signed change: "+1.5" or "-2", coloured by its direction, the raw figure on hover. */
function Change({ change, decimals, unit }: { change: string; decimals: number | null; unit: string }) {
  const value = BigInt(change)
  const shown = decimals === null ? count(change) : units(change, decimals)
  return (
    <span class={value < 0n ? 'amount-down' : 'amount-up'} title={change}>
      {value > 0n ? '+' : ''}
      {shown}
      {unit ? ` ${unit}` : ''}
    </span>
  )
}

function Account({ account }: { account: AccountChange }) {
  const { balance, nonce, codeSize } = account
  return (
    <li data-address={account.address}>
      <h3>
        <AddressLink address={account.address} label={account.label} full />
      </h3>
      <Fields
        rows={[
          [
            'Ether',
            balance ? (
              <span class="account-balance">
                {ether(balance.before)} → {ether(balance.after)} (<Change change={(BigInt(balance.after) - BigInt(balance.before)).toString()} decimals={18} unit="ETH" />)
              </span>
            ) : null,
          ],
          ['Nonce', nonce ? <span class="account-nonce">{`${nonce.before} → ${nonce.after}`}</span> : null],
          ['Code', codeSize ? `${count(codeSize.before)} → ${count(codeSize.after)} bytes` : null],
        ]}
      />
      {account.storage.length > 0 ? (
        <details class="storage" open={account.storage.length <= 8}>
          <summary>Storage: {account.storage.length === 1 ? '1 slot' : `${count(account.storage.length)} slots`} changed</summary>
          {account.storage.map((slot) => (
            <dl class="slots" key={slot.slot} data-slot={slot.slot}>
              <div>
                <dt>Slot</dt>
                <dd class="mono wrap small">{slot.slot}</dd>
              </div>
              <div>
                <dt>Before</dt>
                <dd class="mono wrap small">{slot.before}</dd>
              </div>
              <div>
                <dt>After</dt>
                <dd class="mono wrap small slot-after">{slot.after}</dd>
              </div>
            </dl>
          ))}
        </details>
      ) : null}
    </li>
  )
}

/** The state changes tab: token balances from the transfer logs, and the node's account diff when it has one. */
export function TxStateChanges({ hash }: { hash: string }) {
  const loaded = useApi<TxState>(`/tx/${encodeURIComponent(hash)}/state`)
  return (
    <WhenLoaded loaded={loaded} what="state changes">
      {(state) => (
        <>
          <h3>Token balances</h3>
          <DataTable
            rows={state.tokens}
            rowKey={(change) => `${change.token}:${change.holder}`}
            empty="No token balance changed."
            columns={[
              { head: 'Token', cell: (change) => <a href={`/token/${change.token}`}>{change.symbol ?? change.tokenLabel ?? change.token}</a> },
              { head: 'Holder', cell: (change) => <AddressLink address={change.holder} label={change.holderLabel} /> },
              { head: 'Change', number: true, class: 'token-change', cell: (change) => <Change change={change.change} decimals={change.decimals} unit={change.symbol ?? ''} /> },
            ]}
          />
          <h3>Accounts</h3>
          {state.accounts === null ? (
            <p class="muted" id="tx-state-missing">
              {MISSING[state.accountsMissing ?? 'failed']}
            </p>
          ) : (
            <>
              {state.truncated ? <p class="muted">Only the first accounts and slots are shown: the change is larger than one answer carries.</p> : null}
              <ul class="account-changes" id="tx-state-accounts">
                {state.accounts.map((account) => (
                  <Account key={account.address} account={account} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </WhenLoaded>
  )
}
