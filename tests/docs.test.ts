import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { ROOT } from './helpers/stack.ts'

// The README and the pages of docs/ link to each other and to files of the checkout; a page
// moved or renamed, or a heading reworded, must not leave a link pointing at nothing.

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-')
}

/** The anchors a Markdown file's headings give, a repeated one numbered as GitHub numbers it. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const match of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(match[1]!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** The text without fenced code blocks, whose lines are neither headings nor links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
}

/** Every relative link of a Markdown file that does not resolve, as `file: target (why)`. */
export function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const broken: string[] = []
  const name = relative(ROOT, file)
  for (const match of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
    const [path, anchor] = target.split('#') as [string, string | undefined]
    const resolved = path === '' ? file : resolve(dirname(file), path)
    if (!existsSync(resolved)) {
      broken.push(`${name}: ${target} (no such file)`)
      continue
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
      broken.push(`${name}: ${target} (no such heading)`)
    }
  }
  return broken
}

function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs')
  const pages = readdirSync(docs).filter((entry) => entry.endsWith('.md') && statSync(join(docs, entry)).isFile())
  return [join(ROOT, 'README.md'), ...pages.map((page) => join(docs, page))]
}

describe('the README and docs/', () => {
  test('every relative link points at a file, and an anchor at a heading, that exist', () => {
    const files = markdownFiles()
    expect(files.length).toBeGreaterThan(10)
    expect(files.flatMap(brokenLinks)).toEqual([])
  })

  test('every file of the checkout a page names in code (`src/...`, `tests/...`, `bench/...`) exists', () => {
    const named = markdownFiles().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/`((?:src|tests|bench|registry|contracts)\/[A-Za-z0-9_./-]*[A-Za-z0-9_])`/g)].map((match) => ({ file: relative(ROOT, file), path: match[1]! })),
    )
    expect(named.length).toBeGreaterThan(50)
    expect(named.filter(({ path }) => !existsSync(join(ROOT, path))).map(({ file, path }) => `${file}: ${path}`)).toEqual([])
  })

  test('no comment sends the reader to a document outside the repository', () => {
    const cited: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules' && entry.name !== 'fixtures') walk(path)
        } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && path !== import.meta.path) {
          const text = readFileSync(path, 'utf8')
          for (const match of text.matchAll(/[Ss]pec 0[123]|DESIGN\.md/g)) cited.push(`${relative(ROOT, path)}: ${match[0]}`)
        }
      }
    }
    for (const top of ['src', 'tests', 'bench']) walk(join(ROOT, top))
    expect(cited).toEqual([])
  })

  test('a link to a missing file or heading is caught', () => {
    expect(anchorOf('The local chain (`stack dev`)')).toBe('the-local-chain-stack-dev')
    expect(anchorsOf('# Routes\n## Routes\n```\n# not a heading\n```\n')).toEqual(new Set(['routes', 'routes-1']))
    const dir = mkdtempSync(join(tmpdir(), 'stack-docs-'))
    try {
      const page = join(dir, 'page.md')
      writeFileSync(join(dir, 'other.md'), '# Other\n## A part\n')
      writeFileSync(page, '# Page\n[ok](other.md#a-part) [ok](#page) [web](https://example.com/x.md)\n[gone](missing.md) [no heading](other.md#nowhere) [here](#nowhere)\n```\n[in code](missing.md)\n```\n')
      expect(brokenLinks(page).map((line) => line.slice(line.indexOf(': ') + 2))).toEqual(['missing.md (no such file)', 'other.md#nowhere (no such heading)', '#nowhere (no such heading)'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
