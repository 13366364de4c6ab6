// The worker that runs solc-js, so that a compile never holds the server's event loop. It is
// compiled into the executable as an entry of its own (build.ts); the bundled soljson is loaded
// here only, never on the main thread. Each message is answered once: a compile or a version question.
import wrapper from 'solc/wrapper'

declare const self: Worker

export type CompileWorkerRequest = {
  /** A soljson file on disk (hardhat's cache, the configured folder), or null for the bundled one. */
  soljson: string | null
  /** The standard JSON input as text; null asks only the version. */
  input: string | null
  /** The most characters of output handed back. */
  maxOutputChars: number
}

export type CompileWorkerAnswer = { version: string; output: string | null } | { error: string; tooLarge?: boolean }

// A worker serves one compiler (warmWorkers.ts keys them so): it is loaded once, at the first message.
let loaded: { soljson: string | null; solc: ReturnType<typeof wrapper> } | null = null

self.onmessage = (event: MessageEvent<CompileWorkerRequest>) => {
  const { soljson, input, maxOutputChars } = event.data
  try {
    if (loaded === null || loaded.soljson !== soljson) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = { soljson, solc: wrapper(soljson === null ? require('solc/soljson.js') : require(soljson)) }
    }
    const solc = loaded.solc
    const version: string = solc.version()
    if (input === null) return answer({ version, output: null })
    // No import callback: a source must be inline, nothing is read from the disk.
    const output: string = solc.compile(input)
    if (output.length > maxOutputChars) return answer({ error: `the compiler's output is larger than ${maxOutputChars} characters`, tooLarge: true })
    answer({ version, output })
  } catch (error) {
    answer({ error: error instanceof Error ? error.message : String(error) })
  }
}

function answer(message: CompileWorkerAnswer) {
  postMessage(message)
}
