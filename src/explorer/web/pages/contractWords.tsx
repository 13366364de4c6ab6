import { useEffect, useState } from 'preact/hooks'
import { AddressLink } from '../ui.tsx'
import type { ContractAnswer, ContractHow, MatchKind } from '../../../answers/contract.ts'
import '../contract/contract.css'

// What an address page says of a contract without the tabs' own code: the tabs' names and the
// match in words, drawn at once, and the tabs themselves from a chunk of their own (the
// highlighter and viem's encoding are most of the pages' script, and most addresses are no
// verified contract).

export type ContractTab = 'code' | 'read' | 'write'
export const CONTRACT_TABS: Array<[ContractTab, string]> = [
  ['code', 'Code'],
  ['read', 'Read'],
  ['write', 'Write'],
]

/** How the stack knows the contract, in words. */
export function MatchWords({ match, by }: { match: MatchKind | null; by: ContractHow | null }) {
  if (!by) return <>Not verified</>
  const closeness = match === 'exact_match' ? 'exact match' : 'partial match'
  if (by.kind === 'similar') return <>Same code as <AddressLink address={by.via} /> ({closeness})</>
  if (by.kind === 'artifact') return <>Matched from local artifacts <span class="muted">({by.path}, {closeness})</span></>
  return <>Verified ({closeness})</>
}

type ContractTabsProps = { info: ContractAnswer; tab: ContractTab; base: string }
type TabsModule = typeof import('./contract.tsx')

/** The tabs' chunk once loaded; the same promise for every page that asks while it loads. */
let loading: Promise<TabsModule> | null = null
let loaded: TabsModule | null = null

const loadTabs = (): Promise<TabsModule> =>
  (loading ??= import('./contract.tsx').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null
      throw error
    },
  ))

/** The Code, Read and Write tabs, drawn once their chunk is loaded; a line while it loads, and a retry if it fails. */
export function ContractTabs(props: ContractTabsProps) {
  const [tabs, setTabs] = useState<TabsModule | null>(loaded)
  const [failed, setFailed] = useState(false)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    if (tabs) return
    let current = true
    loadTabs().then(
      (module) => current && setTabs(module),
      () => current && setFailed(true),
    )
    return () => {
      current = false
    }
  }, [attempt])
  if (tabs) return <tabs.ContractTabs {...props} />
  return (
    <section class="card" id="contract" aria-label="contract">
      {failed ? (
        <div class="failure-line" role="alert">
          <p class="failure">The contract's tabs could not be loaded: the explorer did not answer.</p>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setFailed(false)
              setAttempt(attempt + 1)
            }}
          >
            Try again
          </button>
        </div>
      ) : (
        <p class="muted" role="status">
          Loading the contract…
        </p>
      )}
    </section>
  )
}
