import { zeroAddress, type Abi, type Address } from 'viem'
import NameRegistry from '../../contracts/out/NameRegistry.json' with { type: 'json' }
import { checksum } from '../eth/address.ts'
import type { RpcCall, RpcResult } from '../chain/rpc.ts'
import { viewCall, viewResult } from './node.ts'

/** The name registry's ABI, as compiled from contracts/NameRegistry.sol. */
export const nameRegistryAbi = NameRegistry.abi as Abi

/** The suffix of every name (`.bx`, the name registry's); `/name/alice` and `/name/alice.bx` are one lookup. */
export const NAME_SUFFIX = 'bx'

/** `/name/{name}`: labels of 3 to 32 characters. */
export const LABEL_MIN = 3
export const LABEL_MAX = 32

/** What a registrable label is made of (the registry's own rule: a-z, 0-9 and "-", not first or last). */
const LABEL_CHARACTERS = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/

/** The label of a name: one trailing suffix (".bx", ".eth") stripped, in lower case. Null when out of range. */
export function nameLabel(name: string): string | null {
  let text: string
  try {
    text = decodeURIComponent(name).trim().toLowerCase()
  } catch {
    return null
  }
  const label = text.replace(/\.[^.]*$/, '')
  const length = [...label].length
  return length >= LABEL_MIN && length <= LABEL_MAX ? label : null
}

/** Whether a label in range can be registered at all. */
export const isRegistrableLabel = (label: string): boolean => LABEL_CHARACTERS.test(label)

/** The registry's Record struct as viem decodes it. */
type OnChainRecord = {
  label: string
  valid: boolean
  reserved: boolean
  available: boolean
  owner: Address
  resolved: Address
  expires: bigint
  price: bigint
  twitter: string
  website: string
  description: string
}

/**
 * The name lookup: `{name, label, available, reserved, owner, resolved, expires, price,
 * twitter, website, description}`. `expires` is in seconds of chain time (null for a label never
 * registered), `price` the yearly price in BX base units as a decimal string; an expired name
 * keeps its last owner and expiry, resolves to nothing and is available again. Everything but
 * `name` and `label` is read live, so it is null when the registry could not be read.
 */
export type NameRecord = {
  name: string
  label: string
  available: boolean | null
  reserved: boolean | null
  owner: Address | null
  resolved: Address | null
  expires: number | null
  price: string | null
  twitter: string | null
  website: string | null
  description: string | null
}

/**
 * The lookup of `label` when the registry could not be read (the node away, or no registry
 * answering at the configured address): what the name itself says, every live part null.
 */
export function unreadRecord(label: string): NameRecord {
  return {
    name: `${label}.${NAME_SUFFIX}`,
    label,
    available: null,
    reserved: null,
    owner: null,
    resolved: null,
    expires: null,
    price: null,
    twitter: null,
    website: null,
    description: null,
  }
}

const addressOrNull = (address: Address) => (address === zeroAddress ? null : checksum(address))
const textOrNull = (value: string) => (value === '' ? null : value)

function shape(record: OnChainRecord): NameRecord {
  return {
    name: `${record.label}.${NAME_SUFFIX}`,
    label: record.label,
    available: record.available,
    reserved: record.reserved,
    owner: addressOrNull(record.owner),
    resolved: addressOrNull(record.resolved),
    expires: record.expires === 0n ? null : Number(record.expires),
    price: record.price.toString(),
    twitter: textOrNull(record.twitter),
    website: textOrNull(record.website),
    description: textOrNull(record.description),
  }
}

/** The call that reads everything a lookup shows of `label`, in one eth_call. */
export const lookupCall = (registry: Address, label: string): RpcCall => viewCall(registry, nameRegistryAbi, 'lookup', [label])

/** The call that reads the record of the name `account` names itself by (its reverse record). */
export const reverseCall = (registry: Address, account: Address): RpcCall => viewCall(registry, nameRegistryAbi, 'reverseLookup', [account])

/** The lookup's answer at `index` of a batch; null when the call failed or did not decode. */
export function lookupResult(results: RpcResult[] | null, index: number): NameRecord | null {
  const record = viewResult<OnChainRecord>(results, index, nameRegistryAbi, 'lookup')
  return record ? shape(record) : null
}

/** The reverse lookup's answer at `index`; null when the account names itself by nothing, or the call failed. */
export function reverseResult(results: RpcResult[] | null, index: number): NameRecord | null {
  const record = viewResult<OnChainRecord>(results, index, nameRegistryAbi, 'reverseLookup')
  return record && record.label !== '' ? shape(record) : null
}
