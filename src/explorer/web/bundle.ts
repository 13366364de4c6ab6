// Run as a macro (`import { webBundle } from './bundle.ts' with { type: 'macro' }`): Bun builds
// the explorer's pages when it reads the file that imports it, from source or while compiling
// the executable, and the built script and style become string constants in that file. The
// binary carries them; nothing is built or read from disk at run time. A macro may not call
// Bun.build, which waits on the bundler running the macro, so the build runs in a child: this
// same file run as a script, which builds in memory and prints the two files as JSON. Nothing
// is written to disk, so the stack starts from source on a full disk too (its spool says so).
import { join } from 'node:path'

export type WebBundle = { script: string; style: string }

export function webBundle(): WebBundle {
  const build = Bun.spawnSync([process.execPath, import.meta.path], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } })
  if (build.exitCode !== 0) throw new Error(`the explorer pages did not build:\n${build.stderr.toString()}`)
  return JSON.parse(build.stdout.toString()) as WebBundle
}

async function buildInMemory(): Promise<WebBundle> {
  const result = await Bun.build({ entrypoints: [join(import.meta.dir, 'main.tsx')], target: 'browser', format: 'esm', minify: true })
  if (!result.success) throw new AggregateError(result.logs, 'the explorer pages did not build')
  const script = result.outputs.find((output) => output.kind === 'entry-point')
  const style = result.outputs.find((output) => output.path.endsWith('.css'))
  if (!script || !style) throw new Error(`the explorer pages' build gave ${result.outputs.map((output) => output.path).join(', ')}, not a script and a style`)
  return { script: await script.text(), style: await style.text() }
}

if (import.meta.main) process.stdout.write(JSON.stringify(await buildInMemory()))
