/**
 * Compile workers kept loaded between compiles. Loading a soljson takes about a second, longer
 * than many compiles, so a worker that answered goes back here for its compiler (the bundled one
 * or a file) and is ended after a while unused. A worker that timed out, failed or was stopped is
 * ended instead: terminate() is the one way to interrupt it, and its memory goes with it.
 */
const IDLE_MS = 30_000
/** Loaded compilers kept at most, over every version: each holds the compiler's memory. */
const MOST_IDLE = 2

type Idle = { worker: Worker; key: string; timer: ReturnType<typeof setTimeout> }
const idle: Idle[] = []

/** A worker for `key` (a soljson path, '' for the bundled one): an idle one that has it loaded, else a new one. */
export function takeWorker(key: string, url: string): Worker {
  const at = idle.findIndex((entry) => entry.key === key)
  if (at === -1) return new Worker(url)
  const [entry] = idle.splice(at, 1)
  clearTimeout(entry!.timer)
  entry!.worker.ref()
  return entry!.worker
}

/** A worker that answered, kept for the next compile with the same compiler. */
export function giveBack(key: string, worker: Worker): void {
  // Unreferenced, an idle worker keeps no process alive.
  worker.unref()
  const timer = setTimeout(() => end(worker), IDLE_MS)
  timer.unref?.()
  idle.push({ worker, key, timer })
  while (idle.length > MOST_IDLE) {
    const oldest = idle.shift()!
    clearTimeout(oldest.timer)
    oldest.worker.terminate()
  }
}

function end(worker: Worker): void {
  const at = idle.findIndex((entry) => entry.worker === worker)
  if (at !== -1) idle.splice(at, 1)
  worker.terminate()
}

/** Ends every idle worker (the verifier stopped). */
export function endIdleWorkers(): void {
  for (const entry of idle.splice(0)) {
    clearTimeout(entry.timer)
    entry.worker.terminate()
  }
}

/** How many loaded workers wait (for tests). */
export function idleWorkers(): number {
  return idle.length
}
