import { describe, expect, test } from 'bun:test'
import { ContractNotFoundError, InputTooLargeError, NotJsonError, VerificationInputError } from './errors.ts'
import { parseStandardJson, prepareInput, singleFileInput, splitIdentifier } from './input.ts'
import { licence } from './verifier.ts'

const input = { language: 'Solidity', sources: { 'src/A.sol': { content: 'contract A {}' } }, settings: { optimizer: { enabled: true, runs: 1 }, outputSelection: { '*': { '*': ['abi'] } } } }

describe('the standard JSON input', () => {
  test('text that is not JSON, or not an object, is refused by kind', () => {
    expect(() => parseStandardJson('{"language":', 1000)).toThrow(NotJsonError)
    expect(() => parseStandardJson('[1]', 1000)).toThrow(new NotJsonError('the standard JSON input is not a JSON object'))
    expect(() => parseStandardJson(JSON.stringify(input), 10)).toThrow(InputTooLargeError)
    // Etherscan answers it wrapped in double braces; sent back that way, it is read.
    expect(parseStandardJson(`{${JSON.stringify(input)}}`, 1000)).toEqual(input)
  })

  test("the input is kept as sent but for the output selection, which is the verifier's own", () => {
    const { input: prepared, path, name } = prepareInput(input, 'src/A.sol:A', 10_000)
    expect({ path, name }).toEqual({ path: 'src/A.sol', name: 'A' })
    expect(prepared.settings.optimizer).toEqual({ enabled: true, runs: 1 })
    expect(Object.values((prepared.settings.outputSelection as Record<string, Record<string, string[]>>)['*']!)[0]).toContain('evm.deployedBytecode.immutableReferences')
  })

  test('bad inputs name what is wrong', () => {
    expect(() => prepareInput(input, 'src/B.sol:A', 10_000)).toThrow(new ContractNotFoundError('the contract src/B.sol:A is not in the input: it has no source src/B.sol'))
    expect(() => prepareInput(input, 'A', 10_000)).toThrow('is not named as path:Name')
    expect(() => prepareInput({ ...input, language: 'Vyper' }, 'src/A.sol:A', 10_000)).toThrow('only Solidity')
    expect(() => prepareInput({ ...input, sources: { 'src/A.sol': { urls: ['/etc/passwd'] } } }, 'src/A.sol:A', 10_000)).toThrow('every source must be inline')
    expect(() => prepareInput({ ...input, sources: {} }, 'src/A.sol:A', 10_000)).toThrow('has no sources')
    expect(() => prepareInput(input, 'src/A.sol:A', 100)).toThrow(InputTooLargeError)
    expect(() => prepareInput('text', 'src/A.sol:A', 100)).toThrow(NotJsonError)
    const error = (() => {
      try {
        prepareInput(input, 'src/B.sol:A', 10_000)
      } catch (caught) {
        return caught as VerificationInputError
      }
    })()
    expect(error?.code).toBe('contract_not_found')
  })

  test('a path may hold colons; the name is after the last', () => {
    expect(splitIdentifier('C:/work/src/A.sol:A')).toEqual({ path: 'C:/work/src/A.sol', name: 'A' })
  })
})

test("a single file becomes a standard JSON input the way Etherscan's form does", () => {
  expect(singleFileInput({ source: 'contract Token {}', contractName: 'Token', optimizer: true, runs: 999, evmVersion: 'paris', libraries: { MathLib: '0x00000000000000000000000000000000000000aa' } })).toEqual({
    stdJsonInput: {
      language: 'Solidity',
      sources: { 'Token.sol': { content: 'contract Token {}' } },
      settings: { optimizer: { enabled: true, runs: 999 }, evmVersion: 'paris', libraries: { 'Token.sol': { MathLib: '0x00000000000000000000000000000000000000aa' } } },
    },
    contractIdentifier: 'Token.sol:Token',
  })
  // "default" (Etherscan's word) leaves the compiler's own EVM version; the optimizer is off unless asked.
  expect(singleFileInput({ source: 'x', contractName: 'T', evmVersion: 'default' }).stdJsonInput.settings).toEqual({ optimizer: { enabled: false, runs: 200 } })
  expect(() => singleFileInput({ source: 'x', contractName: 'not a name' })).toThrow(VerificationInputError)
})

test('the licence is the SPDX identifier the source declares', () => {
  expect(licence('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;')).toBe('MIT')
  expect(licence('/* SPDX-License-Identifier: GPL-2.0-or-later */')).toBe('GPL-2.0-or-later')
  expect(licence('// SPDX-License-Identifier: MIT OR Apache-2.0\n')).toBe('MIT OR Apache-2.0')
  expect(licence('pragma solidity ^0.8.0;')).toBeNull()
})
