import { InvalidInputError } from '../errors.ts'
import { parseAddress } from '../eth/address.ts'
import { ContractNotFoundError } from '../verify/errors.ts'
import { parseStandardJson, prepareInput, singleFileInput } from '../verify/input.ts'
import { parseCompilerVersion } from '../verify/version.ts'
import type { Fields } from './dispatch.ts'
import { ETHERSCAN_MAX_BODY } from './fields.ts'

/** The `codeformat` values verifysourcecode takes. */
export const SUPPORTED_FORMATS = ['solidity-standard-json-input', 'solidity-single-file']

/** What a verification compiles: the input, the compiler and the contract in it. */
export type SourceInput = { stdJsonInput: Record<string, unknown>; compilerVersion: string; contractIdentifier: string }

/** The most libraries a single-file request names (`libraryname1` … `libraryname10`), as Etherscan takes them. */
const MAX_LIBRARIES = 10

/** An Etherscan verifysourcecode request's input, whichever `codeformat` it has (one of SUPPORTED_FORMATS). */
export function etherscanInput(format: string, fields: Fields): SourceInput {
  const compilerVersion = fields.get('compilerversion') ?? ''
  if (format === 'solidity-standard-json-input') {
    const stdJsonInput = parseStandardJson(fields.get('sourceCode') ?? '', ETHERSCAN_MAX_BODY) as Record<string, unknown>
    return checkedInput({ stdJsonInput, compilerVersion, contractIdentifier: fields.get('contractname') ?? '' })
  }
  const source = fields.get('sourceCode') ?? ''
  if (source.trim() === '') throw new InvalidInputError('Missing sourceCode')
  const named = fields.get('contractname') ?? ''
  const runs = Number(fields.get('runs') || 200)
  if (!Number.isSafeInteger(runs) || runs < 0) throw new InvalidInputError('runs must be a whole number')
  const libraries: Record<string, string> = {}
  for (let i = 1; i <= MAX_LIBRARIES; i++) {
    const library = fields.get(`libraryname${i}`)
    if (!library) continue
    const address = parseAddress(fields.get(`libraryaddress${i}`) ?? '')
    if (!address) throw new InvalidInputError(`libraryaddress${i} is not an address`)
    libraries[library] = address
  }
  const single = singleFileInput({
    source,
    contractName: named.slice(named.lastIndexOf(':') + 1),
    optimizer: fields.get('optimizationUsed') === '1',
    runs,
    evmVersion: fields.get('evmversion') ?? '',
    libraries,
  })
  return checkedInput({ stdJsonInput: single.stdJsonInput, compilerVersion, contractIdentifier: single.contractIdentifier })
}

/**
 * The checks a request gets before it is queued, so that a mistake is refused at once rather
 * than after a compile: the input as the engine takes it (Solidity, sources inline, the
 * contract's file among them), the compiler's version, and that the file declares a contract
 * (or library) of the name asked.
 */
export function checkedInput(request: SourceInput): SourceInput {
  const { input, path, name } = prepareInput(request.stdJsonInput, request.contractIdentifier, ETHERSCAN_MAX_BODY)
  parseCompilerVersion(request.compilerVersion)
  const declares = new RegExp(`\\b(contract|library)\\s+${name.replace(/\$/g, '\\$')}\\b`)
  if (!declares.test(input.sources[path]!.content)) throw new ContractNotFoundError(`the contract ${name.slice(0, 100)} is not in the input: ${path.slice(0, 200)} declares no contract ${name.slice(0, 100)}`)
  return request
}
