import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { isAbsolute, join, normalize, resolve } from 'node:path'
import { RetryableError } from '../errors.ts'
import { builtInFiles } from './builtInFiles.ts' with { type: 'macro' }

/** Where the registry repository's files are read from: a folder, or an https:// raw base. */
export type RegistrySource = {
  describe: string
  /** The bytes of a file such as `testnet/tokenlist.json`; throws RegistryReadError. */
  read: (relativePath: string) => Promise<Uint8Array>
}

/** A file that could not be read from the source (missing, too large, refused, timed out). */
export class RegistryReadError extends RetryableError {
  override name = 'RegistryReadError'
}

/** Nothing the registry holds is this large; a larger answer is refused, not buffered. */
const MAX_FILE_BYTES = 2 * 1024 * 1024
const FETCH_TIMEOUT_MS = 10_000

/**
 * What a folder source reads while its folder does not exist (the default `registry` beside a
 * config file outside the checkout, or the executable alone): `builtIn` in its place, and
 * `onAbsent` is told when the folder goes (true) and when it is there again (false), once each.
 */
export type WhileAbsent = { builtIn: RegistrySource; onAbsent: (absent: boolean, folder: string) => void }

/**
 * `source` is an https:// URL or a folder, relative to `baseDir` (the config file's folder). A
 * folder is looked for at every read, so one made later is read from then on.
 */
export function registrySource(source: string, baseDir: string, whileAbsent?: WhileAbsent): RegistrySource {
  if (/^https:\/\//.test(source)) return urlSource(source.replace(/\/+$/, ''))
  const root = isAbsolute(source) ? source : resolve(baseDir, source)
  return whileAbsent ? orBuiltIn(folderSource(root), root, whileAbsent) : folderSource(root)
}

/** The registry the executable was built with (this checkout's registry/ when run from source). */
const BUILT_IN = builtInFiles()

export const builtInRegistry: RegistrySource = {
  describe: 'the registry built into stack',
  read: async (relativePath) => {
    const base64 = BUILT_IN[relativePath]
    if (base64 === undefined) throw new RegistryReadError(`${relativePath}: not in the registry built into stack`)
    return new Uint8Array(Buffer.from(base64, 'base64'))
  },
}

function orBuiltIn(folder: RegistrySource, root: string, { builtIn, onAbsent }: WhileAbsent): RegistrySource {
  let absent = false
  const source = (): RegistrySource => {
    const now = !existsSync(root)
    if (now !== absent) onAbsent(now, root)
    absent = now
    return now ? builtIn : folder
  }
  return {
    get describe() {
      return absent ? `${builtIn.describe} (${root} does not exist)` : root
    },
    read: (relativePath) => source().read(relativePath),
  }
}

function folderSource(root: string): RegistrySource {
  return {
    describe: root,
    read: async (relativePath) => {
      const path = normalize(join(root, relativePath))
      if (!path.startsWith(normalize(root))) throw new RegistryReadError(`${relativePath}: outside the registry folder`)
      try {
        const bytes = await readFile(path)
        if (bytes.length > MAX_FILE_BYTES) throw new RegistryReadError(`${relativePath}: larger than ${MAX_FILE_BYTES} bytes`)
        return new Uint8Array(bytes)
      } catch (error) {
        if (error instanceof RegistryReadError) throw error
        throw new RegistryReadError(`${relativePath}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
      }
    },
  }
}

function urlSource(base: string): RegistrySource {
  return {
    describe: base,
    read: async (relativePath) => {
      const url = `${base}/${relativePath}`
      let response: Response
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' })
      } catch (error) {
        throw new RegistryReadError(`${url}: ${(error as Error).message}`)
      }
      if (!response.ok) throw new RegistryReadError(`${url}: HTTP ${response.status}`)
      const declared = Number(response.headers.get('content-length') ?? 0)
      if (declared > MAX_FILE_BYTES) throw new RegistryReadError(`${url}: larger than ${MAX_FILE_BYTES} bytes`)
      return readCapped(response, url)
    },
  }
}

/** The body, read chunk by chunk and abandoned as soon as it passes the cap. */
async function readCapped(response: Response, url: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = response.body?.getReader()
  if (!reader) return new Uint8Array()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    size += value.length
    if (size > MAX_FILE_BYTES) {
      await reader.cancel()
      throw new RegistryReadError(`${url}: larger than ${MAX_FILE_BYTES} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}
