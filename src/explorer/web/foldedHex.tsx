import { useState } from 'preact/hooks'

/** Characters of a folded value shown before "show all". */
const FOLDED_CHARS = 200

/**
 * A long hex value (a creation's init code) folded to its start, with its size, a "show all"
 * that unfolds it and a copy button. A short value is shown whole.
 */
export function FoldedHex({ value, id }: { value: string; id?: string }) {
  const [open, setOpen] = useState(false)
  const [copied, setCopied] = useState(false)
  const long = value.length > FOLDED_CHARS
  const bytes = Math.max((value.length - 2) / 2, 0)
  const copy = () =>
    navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    )
  return (
    <div class="folded-hex" id={id}>
      <p class="mono wrap small" data-folded={long && !open ? 'true' : 'false'}>
        {long && !open ? `${value.slice(0, FOLDED_CHARS)}…` : value}
      </p>
      <p class="folded-hex-actions">
        <span class="muted">{bytes.toLocaleString('en-US')} bytes</span>
        {long ? (
          <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Fold' : 'Show all'}
          </button>
        ) : null}
        <button type="button" class="link-button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </p>
    </div>
  )
}
