import { useState } from 'preact/hooks'
import type { DecodedValue } from './types.ts'
import { AddressLink } from './ui.tsx'

// Values of any length drawn so that none widens its page: long hex folded to its start with
// "show all" and a copy button, tuples and lists as nested rows that wrap inside their card.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HEX = /^0x[0-9a-fA-F]*$/

/** Characters of a folded hex value shown before "show all": a 32-byte word and its `0x`. */
export const HEX_FOLD = 66

/** The text on the clipboard, and whether it got there (an insecure origin has no clipboard). */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** A button that copies `text`, saying "Copied" for a moment once it has. */
export function CopyButton({ text, what = 'value' }: { text: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  return (
    <button
      type="button"
      class="small-button"
      aria-label={`Copy the ${what}`}
      onClick={() =>
        void copy(text).then((done) => {
          setState(done ? 'copied' : 'failed')
          setTimeout(() => setState('idle'), 1500)
        })
      }
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : 'Copy'}
    </button>
  )
}

/**
 * Hex of any length (input data, init code, bytes arguments, log data): up to `fold` characters
 * written out, a longer one folded to its first `fold` characters with its size, "show all" and a
 * copy button. The text wraps at any character, so even unfolded it stays inside its card.
 */
export function Hex({ value, fold = HEX_FOLD, what = 'data', id }: { value: string; fold?: number; what?: string; id?: string }) {
  const [open, setOpen] = useState(false)
  if (value.length <= fold) return <span class="mono wrap" id={id}>{value}</span>
  const bytes = Math.floor((value.length - 2) / 2)
  return (
    <span class="hex" id={id}>
      <span class="mono wrap hex-text">{open ? value : `${value.slice(0, fold)}…`}</span>
      <span class="hex-tools">
        <span class="muted small">{bytes.toLocaleString('en-US')} bytes</span>
        <button type="button" class="small-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Fold' : 'Show all'}
        </button>
        <CopyButton text={value} what={what} />
      </span>
    </span>
  )
}

/**
 * A decoded value: an address as a link, long hex folded, a tuple as nested rows of its named
 * fields and a list as nested rows of its items, each row wrapping inside its card.
 */
export function Value({ value }: { value: DecodedValue }) {
  if (typeof value === 'string' && ADDRESS.test(value)) return <AddressLink address={value} full="unnamed" />
  if (typeof value === 'string' && HEX.test(value)) return <Hex value={value} />
  if (Array.isArray(value)) {
    if (value.length === 0) return <span class="mono">[]</span>
    return <Rows entries={value.map((item, index) => [`[${index}]`, item])} kind="list" />
  }
  if (value !== null && typeof value === 'object') return <Rows entries={Object.entries(value)} kind="tuple" />
  return <span class="mono wrap">{String(value)}</span>
}

function Rows({ entries, kind }: { entries: Array<[string, DecodedValue]>; kind: 'list' | 'tuple' }) {
  return (
    <dl class={`nested ${kind}`}>
      {entries.map(([name, item]) => (
        <div key={name}>
          <dt class={kind === 'list' ? 'mono' : undefined}>{name}</dt>
          <dd>
            <Value value={item} />
          </dd>
        </div>
      ))}
    </dl>
  )
}
