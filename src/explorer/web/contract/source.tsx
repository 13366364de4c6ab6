import hljs from 'highlight.js/lib/core'
import solidity from 'highlightjs-solidity/src/languages/solidity.js'
import { useMemo, useState } from 'preact/hooks'

// A verified source as people read it: line numbers in a gutter that stays put, the code
// highlighted by highlight.js's core with only the Solidity grammar (docs/explorer.md says why
// this library), long lines scrolling inside the box rather than widening the page.

hljs.registerLanguage('solidity', solidity)

/** Past this a file is shown plain: highlighting a huge flattened file would stall the page. */
const HIGHLIGHT_MAX_CHARS = 400_000

/** highlight.js escapes the code it marks up, so its HTML holds nothing of the source's but text. */
function highlighted(path: string, content: string): string | null {
  if (content.length > HIGHLIGHT_MAX_CHARS || !/\.(sol|yul)$/i.test(path)) return null
  return hljs.highlight(content, { language: 'solidity', ignoreIllegals: true }).value
}

/** One source file: its path, a copy button, and its lines numbered. */
export function SourceFile({ path, content, open }: { path: string; content: string; open: boolean }) {
  const [shown, setShown] = useState(open)
  const lines = useMemo(() => content.split('\n').length, [content])
  const html = useMemo(() => (shown ? highlighted(path, content) : null), [shown, path, content])
  return (
    <details class="source-file" open={open} onToggle={(event) => setShown((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <span class="mono wrap">{path}</span> <span class="muted small">{lines.toLocaleString('en-US')} lines</span>
      </summary>
      <div class="source-tools">
        <CopyButton text={content} what={`the source of ${path}`} />
      </div>
      {shown ? (
        <div class="source" role="region" aria-label={`source of ${path}`} tabIndex={0}>
          <pre class="gutter" aria-hidden="true">
            {Array.from({ length: lines }, (_, index) => index + 1).join('\n')}
          </pre>
          {html !== null ? (
            <pre class="code hljs">
              <code class="language-solidity" dangerouslySetInnerHTML={{ __html: html }} />
            </pre>
          ) : (
            <pre class="code">
              <code>{content}</code>
            </pre>
          )}
        </div>
      ) : null}
    </details>
  )
}

/** A button that puts `text` on the clipboard and says so. */
export function CopyButton({ text, what, label = 'Copy' }: { text: string; what: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  return (
    <button
      type="button"
      class="secondary small-button"
      aria-label={`Copy ${what}`}
      onClick={() => {
        // Browsers offer the clipboard only to secure origins (https, or this machine).
        if (!navigator.clipboard) return setState('failed')
        navigator.clipboard.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : label}
    </button>
  )
}
