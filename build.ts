// Compiles the CLI into one executable, dist/stack, that needs neither Bun nor node_modules.
// No --minify: Elysia apps compiled with it are reported broken (elysia issue 1711).
import { mkdirSync, statSync } from 'node:fs'

const outfile = 'dist/stack'
mkdirSync('dist', { recursive: true })
const started = performance.now()
const result = await Bun.build({
  // The spool's writer runs in a worker: its entry (at the root, beside main) must be compiled in too;
  // so must the compile worker of verification, which loads the bundled solc-js (src/verify/compile.ts).
  entrypoints: ['src/main.ts', 'src/spoolWorker.ts', 'src/verify/compileWorker.ts'],
  compile: { outfile },
  target: 'bun',
  minify: false,
  bytecode: true,
  format: 'esm',
  sourcemap: 'inline',
})
if (!result.success) {
  for (const message of result.logs) console.error(message)
  process.exit(1)
}
const megabytes = (statSync(outfile).size / 1024 / 1024).toFixed(1)
console.log(`built ${outfile} (${megabytes} MiB) in ${Math.round(performance.now() - started)} ms`)
