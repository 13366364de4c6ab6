import type { Address, Hex } from 'viem'
import { answerKind } from '../chain/rpc.ts'
import { checksum } from '../eth/address.ts'
import type { TokenMeta } from './rows.ts'
import type { LiveNode } from './node.ts'
import type { RegistryView } from './registryView.ts'
import type { Transfer } from './transfers.ts'

// What a transaction changed: token balances from its transfer logs (always known), and ether
// balances, nonces, code and storage slots before and after from the node's prestate tracer in
// diff mode (when the node has it). docs/explorer.md, "A transaction's state changes".

/** The most accounts and storage slots one answer carries; beyond them it says `truncated`. */
export const MAX_ACCOUNTS = 200
export const MAX_SLOTS = 2000

/** Names an address by its registry tag. */
type Namer = Pick<RegistryView, 'labelName'>

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const ZERO_WORD = `0x${'0'.repeat(64)}`

/** One holder's net change of one token over the transaction, in base units (negative: it lost). */
export type TokenChange = {
  token: string
  tokenLabel: string | null
  symbol: string | null
  decimals: number | null
  verified: boolean
  holder: string
  holderLabel: string | null
  change: string
}

/**
 * Each holder's net change of each ERC-20 token its transfer logs moved, in log order of first
 * appearance. A mint's or burn's zero address is no holder, and a holder whose ins and outs
 * cancel (a router passing tokens on) changed nothing, so neither is listed.
 */
export function tokenChanges(transfers: Transfer[], metaOf: (token: Address) => TokenMeta, registry: Namer): TokenChange[] {
  const nets = new Map<string, { token: Address; holder: Address; change: bigint }>()
  const add = (token: Address, holder: Address, amount: bigint) => {
    if (holder === ZERO_ADDRESS) return
    const key = `${token}:${holder}`
    const net = nets.get(key) ?? { token, holder, change: 0n }
    net.change += amount
    nets.set(key, net)
  }
  for (const transfer of transfers) {
    if (transfer.kind !== 20) continue
    const token = checksum(transfer.token)
    const amount = BigInt(transfer.amount)
    add(token, checksum(transfer.from), -amount)
    add(token, checksum(transfer.to), amount)
  }
  return [...nets.values()]
    .filter((net) => net.change !== 0n)
    .map(({ token, holder, change }) => ({
      token,
      tokenLabel: registry.labelName(token),
      ...metaOf(token),
      holder,
      holderLabel: registry.labelName(holder),
      change: change.toString(),
    }))
}

/** A value before and after the transaction. */
export type Before<T> = { before: T; after: T }

/** One account the transaction changed: balances in wei (decimal), slots as 32-byte words. */
export type AccountChange = {
  address: string
  label: string | null
  balance: Before<string> | null
  nonce: Before<number> | null
  /** The size of its code in bytes before and after, when that changed (a creation). */
  codeSize: Before<number> | null
  storage: Array<{ slot: string; before: string; after: string }>
}

/** One account as the prestate tracer writes it; any field may be left out. */
type TracedAccount = { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }
export type StateDiff = { pre?: Record<string, TracedAccount>; post?: Record<string, TracedAccount> }

const wei = (value: string | undefined): string => (value === undefined ? '0' : BigInt(value).toString())
const codeSize = (code: string | undefined) => (code === undefined || code === '0x' ? 0 : (code.length - 2) / 2)
const word = (value: string | undefined) => (value === undefined ? ZERO_WORD : `0x${value.slice(2).padStart(64, '0').toLowerCase()}`)

/** A traced account's slots keyed and valued as full lower-case words. */
const words = (storage: Record<string, string> | undefined) => new Map(Object.entries(storage ?? {}).map(([slot, value]) => [word(slot), word(value)]))

/**
 * The accounts of a diff-mode prestate trace, before and after. The tracer's rule: `pre` holds
 * each changed account as it was (its balance, nonce and code, and only the slots that changed
 * from a non-zero value); `post` holds only what changed, so a field it leaves out kept its value,
 * and a slot in `pre` but not in `post` became zero (one in `post` only was zero before). An
 * account in `pre` only was destroyed. Bounded by MAX_ACCOUNTS and MAX_SLOTS.
 */
export function accountChanges(diff: StateDiff, registry: Namer): { accounts: AccountChange[]; truncated: boolean } {
  const lowered = (accounts: Record<string, TracedAccount> | undefined) => new Map(Object.entries(accounts ?? {}).map(([address, account]) => [address.toLowerCase(), account]))
  const pre = lowered(diff.pre)
  const post = lowered(diff.post)
  const addresses = [...new Set([...pre.keys(), ...post.keys()])].filter((address) => /^0x[0-9a-f]{40}$/.test(address)).sort()
  let truncated = addresses.length > MAX_ACCOUNTS
  let slotsLeft = MAX_SLOTS
  const accounts: AccountChange[] = []
  for (const lower of addresses.slice(0, MAX_ACCOUNTS)) {
    const before = pre.get(lower) ?? {}
    const afterRaw = post.get(lower)
    const destroyed = afterRaw === undefined && pre.has(lower)
    const after: TracedAccount = destroyed ? { balance: '0x0', nonce: 0, code: '0x' } : (afterRaw ?? {})
    const balanceBefore = wei(before.balance)
    const balanceAfter = after.balance === undefined ? balanceBefore : wei(after.balance)
    const nonceBefore = before.nonce ?? 0
    const nonceAfter = after.nonce ?? nonceBefore
    const sizeBefore = codeSize(before.code)
    const sizeAfter = after.code === undefined ? sizeBefore : codeSize(after.code)
    const wordsBefore = words(before.storage)
    const wordsAfter = words(after.storage)
    const slots = [...new Set([...wordsBefore.keys(), ...wordsAfter.keys()])].sort()
    const storage: AccountChange['storage'] = []
    for (const slot of slots) {
      const was = wordsBefore.get(slot) ?? ZERO_WORD
      const is = wordsAfter.get(slot) ?? ZERO_WORD
      if (was === is) continue
      if (slotsLeft === 0) {
        truncated = true
        break
      }
      slotsLeft--
      storage.push({ slot, before: was, after: is })
    }
    const address = checksum(lower as Address)
    accounts.push({
      address,
      label: registry.labelName(address),
      balance: balanceBefore === balanceAfter ? null : { before: balanceBefore, after: balanceAfter },
      nonce: nonceBefore === nonceAfter ? null : { before: nonceBefore, after: nonceAfter },
      codeSize: sizeBefore === sizeAfter ? null : { before: sizeBefore, after: sizeAfter },
      storage,
    })
  }
  return { accounts: accounts.filter((account) => account.balance || account.nonce || account.codeSize || account.storage.length > 0), truncated }
}

/** Why the accounts' changes are missing: the node lacks the tracer, cannot be reached, or failed. */
export type Missing = 'unsupported' | 'unreachable' | 'failed'

/** The node's diff-mode prestate trace of a transaction, within the node's time limit. */
export async function tracedState(node: LiveNode, hash: Hex): Promise<{ diff: StateDiff } | { missing: Missing }> {
  const results = await node.batch([{ method: 'debug_traceTransaction', params: [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }] }])
  const result = results?.[0]
  if (!result) return { missing: 'unreachable' }
  const kind = answerKind(result)
  if (kind === 'unsupported') return { missing: 'unsupported' }
  if (kind !== 'value' || !result.ok || typeof result.value !== 'object') return { missing: 'failed' }
  return { diff: result.value as StateDiff }
}
