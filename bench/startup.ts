// bun run bench:startup [runs]
//
// Start-up time to the first answer of the compiled executable (dist/stack start, all four
// services) and of the source run, against a ceiling measured in the same run: a compiled
// executable that is nothing but one Bun.serve answering a fixed body.
import { rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { own, printTable, scratchDir, summarize } from './harness.ts'

const runs = Number(process.argv[2] ?? 10)
const root = resolve(import.meta.dir, '..')
const work = scratchDir('startup')

const build = Bun.spawnSync([process.execPath, 'build.ts'], { cwd: root, stdout: 'ignore', stderr: 'inherit' })
if (build.exitCode !== 0) throw new Error('bun run build failed')
const binary = join(root, 'dist/stack')

// The ceiling: the smallest compiled Bun server.
const ceilingSource = join(work, 'ceiling.ts')
writeFileSync(ceilingSource, "Bun.serve({ hostname: '127.0.0.1', port: Number(process.argv[2]), fetch: () => new Response('{}') })\n")
const ceilingBinary = join(work, 'ceiling')
if (Bun.spawnSync([process.execPath, 'build', '--compile', ceilingSource, '--outfile', ceilingBinary], { stdout: 'ignore' }).exitCode !== 0) {
  throw new Error('could not compile the ceiling')
}

let nextPort = 47100
/** Milliseconds from spawn to the first 200 on `path`. */
async function timeToFirstAnswer(command: string[], port: number, path: string): Promise<number> {
  const started = performance.now()
  const child = own(Bun.spawn(command, { cwd: work, stdout: 'ignore', stderr: 'ignore', env: { ...process.env, PATH: '/usr/bin:/bin' } }))
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`)
        if (response.status === 200) return performance.now() - started
      } catch {
        // not up yet
      }
      if (performance.now() - started > 20_000) throw new Error(`${command[0]} did not answer`)
      await Bun.sleep(2)
    }
  } finally {
    child.kill('SIGTERM')
    await child.exited
  }
}

function configFor(port: number): string {
  const file = join(work, `stack-${port}.toml`)
  // Every service on its own port; the exchange index's health is the one timed.
  writeFileSync(
    file,
    `[log]\nlevel = "warn"\n[explorer]\nport = ${port + 1}\n[exchange]\nport = ${port}\n[faucet]\nport = ${port + 2}\n[arcade]\nport = ${port + 3}\n[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n`,
  )
  return file
}

const median = (values: number[]) => summarize(values).p50
const samples: Record<string, number[]> = { ceiling: [], binary: [], source: [] }
for (let run = 0; run < runs; run++) {
  const port = (nextPort += 10)
  samples.ceiling!.push(await timeToFirstAnswer([ceilingBinary, String(port)], port, '/'))
  samples.binary!.push(await timeToFirstAnswer([binary, 'start', '--config', configFor(port + 4)], port + 4, '/health'))
  samples.source!.push(await timeToFirstAnswer([process.execPath, join(root, 'src/main.ts'), 'start', '--config', configFor(port + 8)], port + 8, '/health'))
}
rmSync(work, { recursive: true, force: true })

const ceiling = median(samples.ceiling!)
const versus = (ms: number) => `${(ms / ceiling).toFixed(1)}x`
printTable(
  `start-up to first answer, median of ${runs} runs; dist/stack is ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB`,
  ['command', 'ms', 'vs ceiling'],
  [
    ['ceiling: compiled Bun.serve, fixed body', ceiling.toFixed(0), versus(ceiling)],
    ['dist/stack start (four services)', median(samples.binary!).toFixed(0), versus(median(samples.binary!))],
    ['bun src/main.ts start', median(samples.source!).toFixed(0), versus(median(samples.source!))],
  ],
)
