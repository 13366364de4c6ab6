import { ContractNotFoundError, InputTooLargeError, NotJsonError, VerificationInputError } from './errors.ts'

/** A standard JSON input as solc reads it; only what the verifier looks at is typed. */
export type StandardJsonInput = {
  language: string
  sources: Record<string, { content: string }>
  settings: Record<string, unknown> & { libraries?: Record<string, Record<string, string>> }
}

/** The outputs every verification needs: the target's, and every contract's code for the metadata it carries. */
const OUTPUT_SELECTION = {
  '*': {
    '*': ['abi', 'metadata', 'evm.bytecode.object', 'evm.bytecode.linkReferences', 'evm.deployedBytecode.object', 'evm.deployedBytecode.linkReferences', 'evm.deployedBytecode.immutableReferences'],
  },
}

/**
 * A standard JSON input sent as text (Etherscan's `sourceCode`). Etherscan answers such inputs
 * wrapped in double braces, and some clients send them back that way: one layer is taken off.
 */
export function parseStandardJson(text: string, maxBytes: number): unknown {
  if (Buffer.byteLength(text) > maxBytes) throw new InputTooLargeError(`the standard JSON input is larger than ${maxBytes} bytes`)
  const trimmed = text.trim()
  const unwrapped = trimmed.startsWith('{{') && trimmed.endsWith('}}') ? trimmed.slice(1, -1) : trimmed
  let value: unknown
  try {
    value = JSON.parse(unwrapped)
  } catch (error) {
    throw new NotJsonError(`the standard JSON input is not JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new NotJsonError('the standard JSON input is not a JSON object')
  return value
}

/** `path:Name` split at its last colon (a path may hold colons, a contract name never does). */
export function splitIdentifier(identifier: string): { path: string; name: string } {
  const at = identifier.lastIndexOf(':')
  const path = identifier.slice(0, at)
  const name = identifier.slice(at + 1)
  if (at <= 0 || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
    throw new VerificationInputError('bad_input', `the contract ${JSON.stringify(identifier.slice(0, 200))} is not named as path:Name (such as src/Counter.sol:Counter)`)
  }
  return { path, name }
}

/**
 * The input checked and made ready for the compiler: Solidity, every source inline (the compiler
 * reads nothing from the disk), the contract's file among them, the size bounded; its own
 * settings kept, the output selection replaced by the one matching needs.
 */
export function prepareInput(value: unknown, identifier: string, maxBytes: number): { input: StandardJsonInput; text: string; path: string; name: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new NotJsonError('the standard JSON input is not a JSON object')
  const raw = value as Record<string, unknown>
  const language = raw.language ?? 'Solidity'
  if (language !== 'Solidity') throw new VerificationInputError('bad_input', `the language ${JSON.stringify(String(language).slice(0, 40))} is not verified here: only Solidity`)
  const sources = raw.sources
  if (typeof sources !== 'object' || sources === null || Array.isArray(sources) || Object.keys(sources).length === 0) {
    throw new VerificationInputError('bad_input', 'the standard JSON input has no sources')
  }
  for (const [path, source] of Object.entries(sources)) {
    if (typeof source !== 'object' || source === null || typeof (source as { content?: unknown }).content !== 'string') {
      throw new VerificationInputError('bad_input', `the source ${JSON.stringify(path.slice(0, 200))} has no content: every source must be inline`)
    }
  }
  const settings = raw.settings ?? {}
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw new VerificationInputError('bad_input', 'the settings of the standard JSON input are not an object')
  const { path, name } = splitIdentifier(identifier)
  if (!(path in sources)) throw new ContractNotFoundError(`the contract ${identifier} is not in the input: it has no source ${path}`)
  const input: StandardJsonInput = {
    language: 'Solidity',
    sources: sources as StandardJsonInput['sources'],
    settings: { ...(settings as Record<string, unknown>), outputSelection: OUTPUT_SELECTION },
  }
  const text = JSON.stringify(input)
  if (Buffer.byteLength(text) > maxBytes) throw new InputTooLargeError(`the standard JSON input is larger than ${maxBytes} bytes`)
  return { input, text, path, name }
}

export type SingleFileOptions = {
  source: string
  contractName: string
  optimizer?: boolean
  runs?: number
  /** An EVM version such as "paris"; "" or "default" leaves the compiler's default. */
  evmVersion?: string
  /** A library's name to its address, as Etherscan's libraryname1/libraryaddress1 fields give them. */
  libraries?: Record<string, string>
}

/**
 * Etherscan's `solidity-single-file`: one source (usually flattened) and its settings as a
 * standard JSON input, the file named `<contractName>.sol`; the libraries it names live in
 * that one file.
 */
export function singleFileInput(options: SingleFileOptions): { stdJsonInput: StandardJsonInput; contractIdentifier: string } {
  const { source, contractName, optimizer = false, runs = 200, evmVersion = '', libraries = {} } = options
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(contractName)) throw new VerificationInputError('bad_input', `the contract name ${JSON.stringify(contractName.slice(0, 200))} is not a Solidity identifier`)
  const file = `${contractName}.sol`
  const settings: StandardJsonInput['settings'] = { optimizer: { enabled: optimizer, runs } }
  if (evmVersion !== '' && evmVersion.toLowerCase() !== 'default') settings.evmVersion = evmVersion
  if (Object.keys(libraries).length > 0) settings.libraries = { [file]: { ...libraries } }
  return { stdJsonInput: { language: 'Solidity', sources: { [file]: { content: source } }, settings }, contractIdentifier: `${file}:${contractName}` }
}
