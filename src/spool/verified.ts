import { Database } from 'bun:sqlite'
import type { Address, Hex } from 'viem'
import { addressKey, checksum } from '../eth/address.ts'
import { blob, hex } from '../eth/bytes.ts'
import type { MatchKind, VerificationOrigin, VerifiedDetails } from '../verify/record.ts'
import { marks, type SpoolDb, type SpoolWriter } from './engine.ts'
import { sqliteWriter } from './sqlite/engine.ts'

export type { MatchKind, VerificationOrigin, VerifiedDetails }

export type VerifiedContract = {
  /** The match id. */
  id: number
  address: Address
  /** The block of the contract's creation; null when none is known. */
  blockNumber: number | null
  match: MatchKind
  creationMatch: MatchKind | null
  runtimeMatch: MatchKind | null
  origin: VerificationOrigin
  name: string
  compilerVersion: string
  /** keccak of the runtime code with immutables and metadata zeroed: the same-code rule's key. */
  codeHash: Hex | null
  /** Unix milliseconds. */
  verifiedAt: number
  details: VerifiedDetails
}

export type VerifiedProxy = { address: Address; implementation: Address; blockNumber: number | null; verifiedAt: number }

type Row = {
  id: number
  address: Uint8Array
  block_number: number | null
  match: MatchKind
  creation_match: MatchKind | null
  runtime_match: MatchKind | null
  origin: VerificationOrigin
  name: string
  compiler_version: string
  code_hash: Uint8Array | null
  verified_at: number
  details: string
}

const COLUMNS = 'id, address, block_number, match, creation_match, runtime_match, origin, name, compiler_version, code_hash, verified_at, details'

function fromRow(row: Row): VerifiedContract {
  return {
    id: row.id,
    address: checksum(row.address),
    blockNumber: row.block_number,
    match: row.match,
    creationMatch: row.creation_match,
    runtimeMatch: row.runtime_match,
    origin: row.origin,
    name: row.name,
    compilerVersion: row.compiler_version,
    codeHash: hex(row.code_hash),
    verifiedAt: row.verified_at,
    details: JSON.parse(row.details) as VerifiedDetails,
  }
}

/** The verification of `address`, or null. Reads through any connection (the services' reader). */
const BY_ADDRESS = `SELECT ${COLUMNS} FROM verified_contracts WHERE address = ?`

export async function verifiedContract(db: SpoolDb, address: string): Promise<VerifiedContract | null> {
  const row = await db.get<Row>(BY_ADDRESS, blob(addressKey(address)))
  return row ? fromRow(row) : null
}

/** The most addresses one query of verifiedContracts asks for. */
const ADDRESSES_PER_QUERY = 500

/** The verifications of `addresses`, by their lower-case hex (0x and 40 digits); an address with none is absent. */
export async function verifiedContracts(db: SpoolDb, addresses: readonly string[]): Promise<Map<string, VerifiedContract>> {
  const keys = [...new Set(addresses.map(addressKey))]
  const found = new Map<string, VerifiedContract>()
  for (let start = 0; start < keys.length; start += ADDRESSES_PER_QUERY) {
    const chunk = keys.slice(start, start + ADDRESSES_PER_QUERY)
    const rows = await db.all<Row>(`SELECT ${COLUMNS} FROM verified_contracts WHERE address IN (${marks(chunk.length)})`, ...chunk.map(blob))
    for (const row of rows) found.set(`0x${addressKey(row.address)}`, fromRow(row))
  }
  return found
}

export async function verifiedByCodeHash(db: SpoolDb, codeHash: Hex): Promise<VerifiedContract | null> {
  const row = await db.get<Row>(`SELECT ${COLUMNS} FROM verified_contracts WHERE code_hash = ? ORDER BY id LIMIT 1`, blob(codeHash))
  return row ? fromRow(row) : null
}

/** Each verified runtime code (its masked hash) once, with the immutable references its hash masked. */
export async function verifiedCodeShapes(db: SpoolDb): Promise<Array<{ codeHash: Hex; immutableReferences: VerifiedDetails['immutableReferences'] }>> {
  const rows = await db.all<{ code_hash: Uint8Array; refs: string | null }>(
    `SELECT code_hash, min(${db.dialect.jsonText('details', 'immutableReferences')}) AS refs FROM verified_contracts WHERE code_hash IS NOT NULL GROUP BY code_hash ORDER BY code_hash`,
  )
  return rows.map((row) => ({ codeHash: hex(row.code_hash), immutableReferences: row.refs ? JSON.parse(row.refs) : {} }))
}

export async function verifiedCount(db: SpoolDb): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM verified_contracts'))!.n
}

export async function verifiedProxy(db: SpoolDb, address: string): Promise<VerifiedProxy | null> {
  const row = await db.get<{ address: Uint8Array; implementation: Uint8Array; block_number: number | null; verified_at: number }>(
    'SELECT address, implementation, block_number, verified_at FROM verified_proxies WHERE address = ?',
    blob(addressKey(address)),
  )
  return row ? { address: checksum(row.address), implementation: checksum(row.implementation), blockNumber: row.block_number, verifiedAt: row.verified_at } : null
}

export type NewVerification = Omit<VerifiedContract, 'id' | 'verifiedAt'> & { verifiedAt?: number }

/**
 * Writes verifications into the spool from outside its writer (the Etherscan-compatible
 * listener, `stack dev`'s own contracts). Verifications are rare and small next to the follower's
 * batches, and no chain data: on the embedded file a connection of their own waits out a batch
 * (the busy timeout) rather than routing through the writer's worker; on PostgreSQL any instance
 * that serves the listener writes them. A creation block the spool no longer holds (taken back by
 * a reorganisation while the compile ran) is refused, so nothing outlives its contract.
 */
export type VerificationWriter = {
  /** Records `verification` (replacing an older one of the address); null when its creation block is not in the spool. */
  record: (verification: NewVerification) => Promise<VerifiedContract | null>
  recordProxy: (proxy: Omit<VerifiedProxy, 'verifiedAt'>) => Promise<VerifiedProxy>
  close: () => void
}

/**
 * A new verification's row, the same on both engines: its id the next after the largest (an
 * address verified again keeps its own), written only while its creation block is in the spool.
 */
const RECORD_SQL = `INSERT INTO verified_contracts (id, address, block_number, match, creation_match, runtime_match, origin, name, compiler_version, code_hash, verified_at, details)
  SELECT (SELECT COALESCE(max(id), 0) + 1 FROM verified_contracts), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
  WHERE CAST(? AS BIGINT) IS NULL OR EXISTS (SELECT 1 FROM blocks WHERE number = ?)
  ON CONFLICT (address) DO UPDATE SET block_number = excluded.block_number, match = excluded.match,
    creation_match = excluded.creation_match, runtime_match = excluded.runtime_match, origin = excluded.origin,
    name = excluded.name, compiler_version = excluded.compiler_version, code_hash = excluded.code_hash,
    verified_at = excluded.verified_at, details = excluded.details`

const PROXY_SQL = `INSERT INTO verified_proxies (address, implementation, block_number, verified_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (address) DO UPDATE SET implementation = excluded.implementation, block_number = excluded.block_number, verified_at = excluded.verified_at`

/** Two instances on one database may take the same next id at once: the one refused (a unique violation) tries again. */
const RECORD_TRIES = 3

/** The verification writer over the writer of either engine; `close` closes what it was opened on. */
export function verificationWriter(writer: SpoolWriter, close: () => void = () => {}): VerificationWriter {
  return {
    async record(verification) {
      const { address, blockNumber, match, creationMatch, runtimeMatch, origin, name, compilerVersion, codeHash, details } = verification
      const verifiedAt = verification.verifiedAt ?? Date.now()
      const key = blob(addressKey(address))
      const values = [key, blockNumber, match, creationMatch, runtimeMatch, origin, name, compilerVersion, codeHash ? blob(codeHash) : null, verifiedAt, JSON.stringify(details), blockNumber, blockNumber]
      for (let tries = 1; ; tries++) {
        try {
          return await writer.transaction(async (tx) => {
            if ((await tx.run(RECORD_SQL, ...values)) === 0) return null
            const row = await tx.get<Row>(BY_ADDRESS, key)
            return row ? fromRow(row) : null
          })
        } catch (error) {
          if ((error as { errno?: unknown }).errno !== '23505' || tries >= RECORD_TRIES) throw error
        }
      }
    },
    async recordProxy({ address, implementation, blockNumber }) {
      const verifiedAt = Date.now()
      await writer.transaction((tx) => tx.run(PROXY_SQL, blob(addressKey(address)), blob(addressKey(implementation)), blockNumber, verifiedAt))
      return { address: checksum(address), implementation: checksum(implementation), blockNumber, verifiedAt }
    },
    close,
  }
}

/** The verification writer of the embedded spool file at `path`: a connection of its own. */
export function openVerificationWriter(path: string): VerificationWriter {
  const db = new Database(path, { strict: true })
  db.run('PRAGMA busy_timeout = 5000')
  return verificationWriter(sqliteWriter(db), () => db.close())
}
