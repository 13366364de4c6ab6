import { decodeAbiParameters, toFunctionSelector, toHex, type Abi, type AbiFunction, type Address, type Hex } from 'viem'
import { formatAbiItem } from 'viem/utils'
import type { CallAnswer, ContractAnswer, ContractHow } from '../answers/contract.ts'
import type { ContractBook, KnownContract, ProxyInfo } from '../contracts/book.ts'
import { RpcError } from '../chain/rpc.ts'
import { InvalidInputError, NodeUnreachableError, NotFoundError } from '../errors.ts'
import { jsonSafe } from '../eth/quantity.ts'
import { decodeWith } from '../decode/decode.ts'
import { decodeRevert } from '../decode/revert.ts'
import type { LiveNode } from './node.ts'

const how = (known: KnownContract): ContractHow =>
  known.by.kind === 'similar' ? { kind: 'similar', via: known.by.via } : known.by.kind === 'artifact' ? { kind: 'artifact', path: known.by.path } : { kind: 'verified' }

/**
 * What reads and writes of `address` go by: what the book knows of it and its proxy, or, for a
 * proxy the book does not know itself (a clone is never verified on its own), that proxy alone.
 */
export type ContractAt = { known: KnownContract | null; proxy: ProxyInfo | null }

export async function contractAt(book: ContractBook, address: Address): Promise<ContractAt> {
  const known = await book.lookup(address)
  return { known, proxy: known ? known.proxy : ((await book.proxyOf?.(address)) ?? null) }
}

function proxyAnswer(proxy: ProxyInfo | null): ContractAnswer['proxy'] {
  if (!proxy) return null
  const target = proxy.target
  return { kind: proxy.kind, implementation: proxy.implementation, name: target?.name ?? null, match: target?.by.match ?? null, by: target ? how(target) : null, abi: target?.abi ?? null }
}

export function contractAnswer(address: Address, { known, proxy }: ContractAt): ContractAnswer {
  if (!known) {
    return { address, name: null, match: null, by: null, compilerVersion: null, optimizer: null, evmVersion: null, licence: null, constructorArguments: null, libraries: null, sources: null, abi: null, proxy: proxyAnswer(proxy) }
  }
  const verification = known.by.kind === 'artifact' ? null : known.by.verification
  const details = verification?.details
  const sources = details?.sources ?? (known.by.kind === 'artifact' ? known.by.sources : null)
  return {
    address,
    name: known.name,
    match: known.by.match,
    by: how(known),
    compilerVersion: verification?.compilerVersion ?? null,
    optimizer: details?.optimizer ?? null,
    evmVersion: details?.evmVersion ?? null,
    licence: details?.licence ?? null,
    constructorArguments: details?.constructorArguments ?? null,
    libraries: details?.libraries ?? null,
    sources: sources ? Object.entries(sources).map(([path, content]) => ({ path, content })) : null,
    abi: known.abi,
    proxy: proxyAnswer(known.proxy),
  }
}

/** The calldata a read may carry: a request line stays well under the 16 KiB Bun accepts. */
export const CALLDATA_MAX_BYTES = 4096

const isRead = (item: AbiFunction) => item.stateMutability === 'view' || item.stateMutability === 'pure' || (item as { constant?: boolean }).constant === true

/** The function of `abis` (the contract's, then a proxy's implementation's) whose selector starts `data`. */
function functionOf(abis: readonly Abi[], selector: Hex): AbiFunction | null {
  for (const abi of abis) {
    for (const item of abi) {
      if (item.type === 'function' && toFunctionSelector(item) === selector) return item
    }
  }
  return null
}

/**
 * One `eth_call` of a view or pure function of the contract's known ABI, at the latest block,
 * with the gas cap and the node's time limit: the calldata is checked first, so that the route
 * is no general eth_call proxy. A revert is an answer (its reason decoded), not an error.
 */
export async function callContract(node: LiveNode, { known, proxy }: ContractAt, address: Address, query: { data?: unknown; from?: Address | null }, gasCap: number): Promise<CallAnswer> {
  const data = typeof query.data === 'string' ? query.data : ''
  if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new InvalidInputError('data must be the calldata in hex, 0x and an even number of hex digits')
  if ((data.length - 2) / 2 > CALLDATA_MAX_BYTES) throw new InvalidInputError(`data is at most ${CALLDATA_MAX_BYTES} bytes`)
  if (data.length < 10) throw new InvalidInputError('data must start with a function selector (4 bytes)')
  // Its own ABI and its implementation's, or the implementation's alone behind a proxy not known itself.
  const by = known ?? proxy?.target
  if (!by) throw new NotFoundError('no ABI is known for this address: it is not verified nor matched')
  const selector = data.slice(0, 10).toLowerCase() as Hex
  const using = decodeWith(by)
  const fn = functionOf(using.abis, selector)
  if (!fn) throw new InvalidInputError(`${selector} is not a function of the contract's ABI`)
  const signature = formatAbiItem(fn)
  if (!isRead(fn)) throw new InvalidInputError(`${signature} is not a view or pure function: send it from a wallet instead`)

  const call = { to: address, data: data.toLowerCase() as Hex, gas: toHex(gasCap), ...(query.from ? { from: query.from } : {}) }
  const results = await node.batch([{ method: 'eth_call', params: [call, 'latest'] }])
  const answer = results?.[0]
  if (!answer) throw new NodeUnreachableError('the node cannot be reached')
  const about = { name: fn.name, signature, selector, stateMutability: fn.stateMutability }
  if (!answer.ok) {
    const reason = decodeRevert(revertDataOf(answer.error), using, failure(answer.error, gasCap))
    return { address, function: about, result: null, outputs: null, reverted: true, revertReason: reason }
  }
  const result = typeof answer.value === 'string' ? (answer.value as Hex) : '0x'
  return { address, function: about, result, outputs: decodeOutputs(fn, result), reverted: false, revertReason: null }
}

/** The outputs by name and type, or null when the answer does not decode as the ABI says (the wrong ABI, or no code). */
function decodeOutputs(fn: AbiFunction, result: Hex): CallAnswer['outputs'] {
  try {
    const values = decodeAbiParameters(fn.outputs, result)
    return fn.outputs.map((output, index) => ({ name: output.name ?? '', type: output.type, value: jsonSafe(values[index]) }))
  } catch {
    return null
  }
}

/** A revert's return data as nodes send it: the error's `data` as hex (anvil, geth), or under `data.data` (Hardhat's); null for none. */
function revertDataOf(error: RpcError): Hex | null {
  const data = error.data as unknown
  const hex = typeof data === 'string' ? data : data && typeof data === 'object' ? (data as { data?: unknown }).data : null
  return typeof hex === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(hex) ? (hex as Hex) : null
}

/** The node's words for how the call failed, without their JSON-RPC wrapping; out of gas says the cap. */
function failure(error: RpcError, gasCap: number): string {
  const words = error.message.replace(/^eth_call: /, '').replace(/ \(-?\d+\)$/, '')
  return /out ?of ?gas/i.test(words) ? `ran out of gas: a read may use at most ${gasCap.toLocaleString('en-US')} gas` : words
}
