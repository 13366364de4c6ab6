/**
 * Types of scripts/validate.mjs for TypeScript callers (the explorer service imports the
 * validator to check each copy it fetches). Keep in step with the JSDoc of validate.mjs and of the
 * sibling modules it re-exports from (keccak, problems, network, tokenlist, tags, logos, repository).
 */

/** One broken rule: `<file>: <path>: <message>` once formatted. */
export type Problem = {
  /** Relative to the registry root with / separators, e.g. `testnet/tokenlist.json`. */
  file: string
  /** JSON path inside the file, e.g. `tokens[2].symbol`; empty for the file as a whole. */
  path: string
  message: string
}

export type FileOptions = {
  /** The network folder, e.g. `testnet`. */
  network: string
  /** Defaults to DEFAULT_RAW_BASE. */
  rawBase?: string
  /** Defaults to NETWORK_CHAIN_IDS[network]. */
  chainId?: number
  /**
   * Whether a logo exists with exactly this case, for a path such as
   * `testnet/logos/tokens/0xAbc….png`. Without it, logo files are not looked for.
   */
  logoExists?: (relativePath: string) => boolean
}

export type RepositoryOptions = {
  /** Only this network folder; default every folder holding a tokenlist.json or tags.json. */
  network?: string
  rawBase?: string
  /** A JSON-RPC URL: also check the entries against the chain. */
  rpc?: string
  /** A git ref: also check the version bumps against it. */
  base?: string
}

export declare const DEFAULT_RAW_BASE: string
export declare const NETWORK_CHAIN_IDS: Readonly<Record<string, number>>
export declare const MAX_LOGO_BYTES: number
export declare const PNG_LOGO_SIZE: number

/** Keccak-256 (Ethereum's, padding 0x01) of the bytes, as 0x-prefixed lower-case hex. */
export declare function keccak256(bytes: Uint8Array): string
/** Whether the value is 0x followed by 40 hex digits, in any case. */
export declare function isAddress(value: unknown): value is string
/** The EIP-55 form of an address; throws a TypeError for anything that is not an address. */
export declare function toChecksumAddress(address: string): string

/** Every rule of tokenlist.json, on the parsed file as a whole. */
export declare function validateTokenList(json: unknown, options: FileOptions): Problem[]
/** Every rule of tags.json, on the parsed file as a whole. */
export declare function validateTags(json: unknown, options: FileOptions): Problem[]
/** Every rule of one logo file; `fileName` is its path, used in problems and the name rules. */
export declare function checkLogo(bytes: Uint8Array, fileName: string, options: { kind: 'tokens' | 'tags' }): Problem[]
/** Every problem of the registry folder at `root`. */
export declare function validateRepository(root: string, options?: RepositoryOptions): Promise<Problem[]>
/** `<file>: <JSON path>: <message>`, or `<file>: <message>` without a path. */
export declare function formatProblem(problem: Problem): string
/** The command line; resolves to the exit code (0 clean, 1 problems, 2 usage). */
export declare function main(argv?: string[]): Promise<number>
