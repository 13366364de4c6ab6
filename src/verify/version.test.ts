import { expect, test } from 'bun:test'
import { VerificationInputError } from './errors.ts'
import { longVersion, parseCompilerVersion, versionMatches } from './version.ts'

test('a version is read in the forms forge, hardhat and Etherscan send', () => {
  expect(parseCompilerVersion('v0.8.37+commit.f401782d')).toEqual({ short: '0.8.37', commit: 'f401782d' })
  expect(parseCompilerVersion('0.8.37+commit.f401782d')).toEqual({ short: '0.8.37', commit: 'f401782d' })
  expect(parseCompilerVersion('0.8.37')).toEqual({ short: '0.8.37', commit: null })
  expect(parseCompilerVersion('v0.8.28-nightly.2024.9.1+commit.e1a2e4b3')).toEqual({ short: '0.8.28-nightly.2024.9.1', commit: 'e1a2e4b3' })
  for (const bad of ['latest', '0.8', 'v0.8.37+commit.xyz', 42, '../../etc/passwd']) expect(() => parseCompilerVersion(bad)).toThrow(VerificationInputError)
})

test("what a compiler reports is compared with what was asked, commit included when named", () => {
  expect(longVersion('0.8.37+commit.f401782d.Emscripten.clang')).toBe('v0.8.37+commit.f401782d')
  expect(longVersion('Version: 0.8.37+commit.f401782d.Linux.g++')).toBe('v0.8.37+commit.f401782d')
  expect(versionMatches(parseCompilerVersion('0.8.37'), '0.8.37+commit.f401782d.Linux.g++')).toBe(true)
  expect(versionMatches(parseCompilerVersion('v0.8.37+commit.f401782d'), '0.8.37+commit.f401782d.Linux.g++')).toBe(true)
  expect(versionMatches(parseCompilerVersion('v0.8.37+commit.00000000'), '0.8.37+commit.f401782d.Linux.g++')).toBe(false)
  expect(versionMatches(parseCompilerVersion('0.8.36'), '0.8.37+commit.f401782d.Linux.g++')).toBe(false)
})
