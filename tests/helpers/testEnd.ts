import { afterAll } from 'bun:test'

// What must be stopped once every test file of the run has finished: the test runner calls a
// preloaded afterAll then (bunfig.toml [test] preload), and no process exit hook at all.

const stoppers: Array<() => Promise<unknown> | unknown> = []

/** Runs `stop` at the end of the whole test run (things shared by several test files). */
export function atTestRunEnd(stop: () => Promise<unknown> | unknown): void {
  stoppers.push(stop)
}

afterAll(async () => {
  await Promise.allSettled(stoppers.splice(0).map((stop) => stop()))
})
