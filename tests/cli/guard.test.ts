import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { linesOf } from '../helpers/lines.ts'
import { waitFor } from '../helpers/wait.ts'

const child = Bun.spawn([process.execPath, join(import.meta.dir, 'fixtures/guardedApp.ts')], { stdout: 'pipe', stderr: 'pipe' })
const lines: Record<string, unknown>[] = []
void (async () => {
  for await (const line of linesOf(child.stdout)) if (line.trim()) lines.push(JSON.parse(line))
})()
afterAll(() => child.kill('SIGKILL'))

test('an error no handler caught is logged with its request, and the process keeps serving', async () => {
  const url = await waitFor(() => lines.find((line) => line.msg === 'listening')?.url as string | undefined, 'the guarded app', 10_000)
  expect((await fetch(`${url}/timer`)).status).toBe(200)
  expect((await fetch(`${url}/rejection`)).status).toBe(200)
  const unexpected = () => lines.filter((line) => line.msg === 'unexpected error; the stack keeps serving')
  await waitFor(() => unexpected().length === 2, 'both errors in the log', 5000)
  const reported = unexpected()
  const thrown = reported.find((line) => line.origin === 'uncaughtException')
  expect(thrown).toMatchObject({ level: 50, service: 'guarded', method: 'GET', path: '/timer' })
  expect(JSON.stringify(thrown!.err)).toContain('thrown from a timer')
  const rejected = reported.find((line) => line.origin === 'unhandledRejection')
  expect(rejected).toMatchObject({ level: 50 })
  expect(JSON.stringify(rejected!.err)).toContain('a rejection nobody awaited')
  expect(child.exitCode).toBeNull()
  expect(await (await fetch(`${url}/ok`)).json()).toEqual({ ok: true })
})
