// Where each worker's entry is. This file sits at the root of src/ on purpose: run from source,
// import.meta.url is this file; in the compiled binary every module shares the executable's URL
// at the root of the embedded files, where the worker entries (listed in build.ts) keep their
// paths relative to src/. Either way './spoolWorker.ts' resolves to the same entry.
export const SPOOL_WORKER_URL = new URL('./spoolWorker.ts', import.meta.url).href
