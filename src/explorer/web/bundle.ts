// Run as a macro (`import { webBundle } from './bundle.ts' with { type: 'macro' }`): Bun builds
// the explorer's pages when it reads the file that imports it, from source or while compiling
// the executable, and the built script and style become string constants in that file. The
// binary carries them; nothing is built or read from disk at run time. (A macro may not call
// Bun.build, which waits on the bundler running the macro: the build runs as `bun build`.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type WebBundle = { script: string; style: string }

export function webBundle(): WebBundle {
  const outdir = mkdtempSync(join(tmpdir(), 'stack-web-'))
  try {
    const build = Bun.spawnSync(
      [process.execPath, 'build', join(import.meta.dir, 'main.tsx'), '--target=browser', '--format=esm', '--minify', `--outdir=${outdir}`, '--entry-naming=app.[ext]', '--asset-naming=[name].[ext]'],
      { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } },
    )
    if (build.exitCode !== 0) throw new Error(`the explorer pages did not build:\n${build.stderr.toString()}${build.stdout.toString()}`)
    return { script: readFileSync(join(outdir, 'app.js'), 'utf8'), style: readFileSync(join(outdir, 'app.css'), 'utf8') }
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}
