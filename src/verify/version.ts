import { VerificationInputError } from './errors.ts'

/** A compiler version as a request names it: `v0.8.37+commit.f401782d`, `0.8.37+commit.f401782d` or `0.8.37`. */
export type CompilerVersion = {
  /** `0.8.37` (a prerelease keeps its suffix: `0.8.28-nightly.2024.9.1`). */
  short: string
  /** The eight hex digits of the build's commit, or null when the request named none. */
  commit: string | null
}

const VERSION = /^v?(\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z.]{1,40})?)(?:\+commit\.([0-9a-f]{8}))?(?:\.[A-Za-z0-9.+_-]{1,40})?$/

export function parseCompilerVersion(text: unknown): CompilerVersion {
  const match = typeof text === 'string' ? VERSION.exec(text.trim()) : null
  if (!match) throw new VerificationInputError('bad_input', `the compiler version ${JSON.stringify(String(text).slice(0, 80))} is not a version such as v0.8.37+commit.f401782d`)
  return { short: match[1]!, commit: match[2] ?? null }
}

/**
 * The long form a compiler reports (`0.8.37+commit.f401782d.Emscripten.clang`,
 * `Version: 0.8.37+commit.f401782d.Linux.g++`) as Etherscan writes it: `v0.8.37+commit.f401782d`.
 */
export function longVersion(reported: string): string | null {
  const match = /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+?)?)\+commit\.([0-9a-f]{8})/.exec(reported)
  return match ? `v${match[1]}+commit.${match[2]}` : null
}

/** Whether a compiler reporting `reported` (its long form) is the version asked for. */
export function versionMatches(wanted: CompilerVersion, reported: string): boolean {
  const long = longVersion(reported)
  if (long === null) return false
  return long === `v${wanted.short}+commit.${wanted.commit ?? long.slice(-8)}`
}

export function describeVersion(version: CompilerVersion): string {
  return version.commit ? `v${version.short}+commit.${version.commit}` : version.short
}
