import type { SpoolDb } from '../../spool/engine.ts'
import type { Address } from 'viem'
import type { ContractBook, KnownContract } from '../../contracts/book.ts'
import { InvalidInputError } from '../../errors.ts'
import { addressKey, parseAddress } from '../../eth/address.ts'
import { blob, hex } from '../../eth/bytes.ts'
import { creationsOf, MAX_CREATION_LOOKUPS } from '../../spool/read.ts'
import { VerificationQueueFullError } from '../../verify/errors.ts'
import { notOk, nothingFound, ok, type EtherscanAnswer } from '../answer.ts'
import type { EtherscanModule, Fields } from '../dispatch.ts'
import type { Jobs } from '../jobs.ts'
import { etherscanInput, SUPPORTED_FORMATS } from '../sourceInput.ts'
import { AlreadyVerifiedError, NoContractCodeError, type Verifications } from '../verifications.ts'

const NOT_VERIFIED = 'Contract source code not verified'

export type ContractModuleParts = { reader: SpoolDb; book: ContractBook; jobs: Jobs; verifications: Verifications }

/** Etherscan's contract module (docs/etherscan.md): ABIs and sources, verification, creations, proxies. */
export function contractModule({ reader, book, jobs, verifications }: ContractModuleParts): EtherscanModule {
  return {
    async getabi(fields) {
      const address = requiredAddress(fields, 'address')
      if (typeof address !== 'string') return address
      const known = await book.lookup(address)
      return known ? ok(JSON.stringify(known.abi)) : notOk(NOT_VERIFIED)
    },

    async getsourcecode(fields) {
      const address = requiredAddress(fields, 'address')
      if (typeof address !== 'string') return address
      const [known, proxy] = await Promise.all([book.lookup(address), book.proxyOf?.(address) ?? null])
      const implementation = proxy?.implementation ?? null
      return ok([{ ...sourceCodeEntry(known), Proxy: implementation ? '1' : '0', Implementation: implementation ? implementation.toLowerCase() : '', SwarmSource: '' }])
    },

    async verifysourcecode(fields) {
      const address = requiredAddress(fields, 'contractaddress')
      if (typeof address !== 'string') return address
      const format = fields.get('codeformat') ?? 'solidity-single-file'
      if (!SUPPORTED_FORMATS.includes(format)) return notOk(`codeformat ${format.slice(0, 64)} is not supported; use one of ${SUPPORTED_FORMATS.join(', ')}`)
      try {
        const input = etherscanInput(format, fields)
        const constructorArguments = fields.get('constructorArguements') ?? fields.get('constructorArguments') ?? null
        const job = await verifications.submit({ address, ...input, constructorArguments, creationTransactionHash: null, origin: 'etherscan' })
        return ok(job.id)
      } catch (error) {
        if (error instanceof AlreadyVerifiedError || error instanceof NoContractCodeError || error instanceof VerificationQueueFullError || error instanceof InvalidInputError) {
          return notOk(error.message)
        }
        throw error
      }
    },

    checkverifystatus: (fields) => {
      const job = jobs.get(fields.get('guid') ?? '')
      if (!job || job.kind !== 'contract') return notOk('Unknown UID')
      if (!job.outcome) return notOk('Pending in queue')
      if (job.outcome.state === 'pass') return ok('Pass - Verified')
      if (job.outcome.code === 'already_verified') return notOk('Already Verified')
      return notOk(`Fail - Unable to verify. ${job.outcome.message}`)
    },

    async getcontractcreation(fields) {
      const listed = (fields.get('contractaddresses') ?? '').split(',').map((text) => text.trim()).filter((text) => text !== '')
      if (listed.length === 0) return notOk('Error! Missing or invalid contractaddresses')
      if (listed.length > MAX_CREATION_LOOKUPS) return notOk(`Error! Maximum of ${MAX_CREATION_LOOKUPS} contract addresses per request`)
      const addresses: Address[] = []
      for (const text of listed) {
        const address = parseAddress(text)
        if (!address) return notOk(`Error! Invalid address format: ${text.slice(0, 64)}`)
        addresses.push(address)
      }
      const creations = await creationsOf(reader, addresses.map((address) => blob(addressKey(address))))
      if (creations.length === 0) return nothingFound('No data found', null)
      return ok(
        creations.map((creation) => ({
          contractAddress: hex(creation.address),
          contractCreator: hex(creation.creator),
          txHash: hex(creation.txHash),
          blockNumber: String(creation.blockNumber),
        })),
      )
    },

    async verifyproxycontract(fields) {
      const address = requiredAddress(fields, 'address')
      if (typeof address !== 'string') return address
      const expectedText = fields.get('expectedimplementation') ?? ''
      const expected = expectedText === '' ? null : parseAddress(expectedText)
      if (expectedText !== '' && !expected) return notOk('Error! Invalid expectedimplementation address format')
      try {
        return ok((await verifications.submitProxy(address, expected)).id)
      } catch (error) {
        if (error instanceof NoContractCodeError) return notOk(error.message)
        throw error
      }
    },

    checkproxyverification: (fields) => {
      const job = jobs.get(fields.get('guid') ?? '')
      if (!job || job.kind !== 'proxy') return notOk('Unknown UID')
      if (!job.outcome) return notOk('Pending in queue')
      return job.outcome.state === 'pass' ? ok(job.outcome.message) : notOk(job.outcome.message)
    },
  }
}

/** The field's address, or Etherscan's refusal of it. */
function requiredAddress(fields: Fields, name: string): Address | EtherscanAnswer {
  const address = parseAddress(fields.get(name) ?? '')
  return address ?? notOk(`Error! Invalid ${name} format`)
}

/** The keys of getsourcecode's entry that come from what the stack knows of the contract. */
function sourceCodeEntry(known: KnownContract | null) {
  const empty = { SourceCode: '', ABI: NOT_VERIFIED, ContractName: '', CompilerVersion: '', OptimizationUsed: '', Runs: '', ConstructorArguments: '', EVMVersion: '', Library: '', LicenseType: '' }
  if (!known) return empty
  if (known.by.kind === 'artifact') {
    return { ...empty, SourceCode: sourceText(null, known.by.sources ?? {}), ABI: JSON.stringify(known.abi), ContractName: known.name }
  }
  const { verification } = known.by
  const details = verification.details
  return {
    SourceCode: sourceText(details.stdJsonInput, details.sources),
    ABI: JSON.stringify(known.abi),
    ContractName: verification.name,
    CompilerVersion: verification.compilerVersion,
    OptimizationUsed: details.optimizer.enabled ? '1' : '0',
    Runs: String(details.optimizer.runs),
    ConstructorArguments: details.constructorArguments,
    EVMVersion: details.evmVersion ?? 'Default',
    Library: Object.entries(details.libraries)
      .map(([name, address]) => `${name.split(':').pop()}:${address.slice(2).toLowerCase()}`)
      .join(';'),
    LicenseType: details.licence ?? '',
  }
}

/**
 * `SourceCode` as Etherscan writes it: a standard JSON input wrapped in a second pair of braces
 * (`{{ … }}`, which clients strip to tell it from a single file); one source file as its text;
 * several without an input as the input's `sources` would hold them, wrapped the same way.
 */
function sourceText(stdJsonInput: unknown, sources: Record<string, string>): string {
  if (stdJsonInput) return `{${JSON.stringify(stdJsonInput)}}`
  const files = Object.entries(sources)
  if (files.length === 0) return ''
  if (files.length === 1) return files[0]![1]
  return `{${JSON.stringify({ language: 'Solidity', sources: Object.fromEntries(files.map(([path, content]) => [path, { content }])) })}}`
}
