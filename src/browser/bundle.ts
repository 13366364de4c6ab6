// Run as a macro (`import { browserBundle } from '…/browser/bundle.ts' with { type: 'macro' }`):
// Bun builds a page's script when it reads the file that calls it, from source or while
// compiling the executable, and the built script and style become string constants in that
// file. The binary carries them; nothing is built or read from disk at run time. This is how a
// page's script imports code it shares with the server (src/format). A macro may not call
// Bun.build, which waits on the bundler running the macro, so the build runs in a child: this
// same file run as a script, which builds in memory and prints the files as JSON. Nothing is
// written to disk, so the stack starts from source on a full disk too (its spool says so).
import { basename, join } from 'node:path'

export type BrowserBundle = {
  script: string
  style: string
  /**
   * The scripts the entry loads with `import()` when it needs them, by file name: served beside
   * the entry's script (`/<name>`), which imports them by a path relative to its own.
   */
  chunks: Record<string, string>
  /**
   * The chunks the entry imports statically (the code it shares with the chunks it loads
   * later), which a page names in `<link rel="modulepreload">` so that they load beside the
   * entry instead of after it.
   */
  preload: string[]
}

/**
 * The script built from `entry` (a path under src/) with what it imports, for a
 * `<script type="module">`, the style sheets it imports ("" when none), and a chunk for each
 * module it imports dynamically (with the libraries only that module needs). `minify = false`
 * keeps a script readable as it is served.
 */
export function browserBundle(entry: string, minify = true): BrowserBundle {
  const build = Bun.spawnSync([process.execPath, import.meta.path, entry, String(minify)], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } })
  if (build.exitCode !== 0) throw new Error(`${entry} did not build:\n${build.stderr.toString()}`)
  return JSON.parse(build.stdout.toString()) as BrowserBundle
}

async function buildInMemory(entry: string, minify: boolean): Promise<BrowserBundle> {
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, '..', entry)],
    target: 'browser',
    format: 'esm',
    minify,
    splitting: true,
    naming: { chunk: 'chunk-[hash].[ext]', asset: '[name]-[hash].[ext]' },
  })
  if (!result.success) throw new AggregateError(result.logs, `${entry} did not build`)
  const script = result.outputs.find((output) => output.kind === 'entry-point')
  const styles = result.outputs.filter((output) => output.path.endsWith('.css'))
  if (!script) throw new Error(`${entry}'s build gave ${result.outputs.map((output) => output.path).join(', ')}, no script`)
  const chunks: Record<string, string> = {}
  for (const output of result.outputs) {
    if (output.kind === 'chunk' && output.path.endsWith('.js')) chunks[basename(output.path)] = await output.text()
  }
  const style = (await Promise.all(styles.map((output) => output.text()))).join('\n')
  const text = await script.text()
  const preload = [...text.matchAll(/(?:^|[;\n])\s*import\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)?\s*(?:from\s*)?["']\.\/([^"']+\.js)["']/g)].map((match) => match[1]!)
  return { script: text, style, chunks, preload: preload.filter((name) => name in chunks) }
}

if (import.meta.main) process.stdout.write(JSON.stringify(await buildInMemory(process.argv[2]!, process.argv[3] !== 'false')))
