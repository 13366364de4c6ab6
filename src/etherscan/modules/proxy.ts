import type { SpoolDb } from '../../spool/engine.ts'
import type { Rpc, RpcResult } from '../../chain/rpc.ts'
import { NodeUnreachableError } from '../../errors.ts'
import { blob, parseHash } from '../../eth/bytes.ts'
import { parseAddressAnyCase } from '../../eth/address.ts'
import { spoolHead, txByHash, txId } from '../../spool/read.ts'
import type { ProxyAnswer } from '../answer.ts'
import type { Fields, ProxyModule } from '../dispatch.ts'
import { CALL_GAS_CAP } from '../node.ts'
import { blockShape, receiptShape, txShapeById } from '../nodeShapes.ts'
import { quantityHex } from '../rows.ts'

export type ProxyDeps = { db: SpoolDb; rpc: Rpc; chainId: number }

/** A parameter JSON-RPC would refuse: -32602, in the node's manner of words. */
class BadParam extends Error {}

const QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/
const DATA = /^0x([0-9a-fA-F]{2})*$/
const SLOT = /^0x[0-9a-fA-F]{1,64}$/
const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized'])
/** Block numbers past this are no block the spool can key (its transaction ids are block × 2^20 + index). */
const MAX_BLOCK = 2n ** 33n
/** The most bytes of call data one eth_call or eth_estimateGas carries. */
const MAX_DATA_CHARS = 2 + 2 * 128 * 1024

const quantityParam = (fields: Fields, name: string): string | undefined => {
  const text = fields.get(name)
  if (text === undefined || text === '') return undefined
  if (!QUANTITY.test(text)) throw new BadParam(`invalid argument: ${name} must be a 0x-hex quantity without leading zeros`)
  return text.toLowerCase()
}
const tagParam = (fields: Fields, name = 'tag'): string => {
  const text = fields.get(name) ?? 'latest'
  if (TAGS.has(text)) return text
  if (!QUANTITY.test(text)) throw new BadParam(`invalid argument: ${name} must be a block tag (latest, earliest, pending) or a 0x-hex block number`)
  return text.toLowerCase()
}
const addressParam = (fields: Fields, name: string, required: boolean): string | undefined => {
  const text = fields.get(name) ?? ''
  if (text === '' && !required) return undefined
  const address = text.startsWith('0x') ? parseAddressAnyCase(text) : null
  if (!address) throw new BadParam(`invalid argument: ${name} must be a 0x-hex address of 20 bytes`)
  return address.toLowerCase()
}
const slotParam = (fields: Fields): string => {
  const text = fields.get('position') ?? '0x0'
  if (!SLOT.test(text)) throw new BadParam('invalid argument: position must be a 0x-hex storage slot of at most 32 bytes')
  return text.toLowerCase()
}
const hashParam = (fields: Fields): string => {
  const hash = parseHash(fields.get('txhash') ?? '')
  if (!hash) throw new BadParam('invalid argument: txhash must be a 0x-hex hash of 32 bytes')
  return hash
}
const dataParam = (fields: Fields, name: string): string | undefined => {
  const text = fields.get(name)
  if (text === undefined || text === '') return undefined
  if (text.length > MAX_DATA_CHARS || !DATA.test(text)) throw new BadParam(`invalid argument: ${name} must be 0x-hex bytes, at most 128 KiB`)
  return text.toLowerCase()
}

/** The call object of eth_call and eth_estimateGas (without `to`, a creation), its gas held to the listener's cap. */
function callObject(fields: Fields) {
  const gas = quantityParam(fields, 'gas')
  const capped = gas === undefined || BigInt(gas) > CALL_GAS_CAP ? quantityHex(CALL_GAS_CAP) : gas
  const call: Record<string, string> = { gas: capped }
  const to = addressParam(fields, 'to', false)
  const from = addressParam(fields, 'from', false)
  const data = dataParam(fields, 'data')
  const value = quantityParam(fields, 'value')
  const gasPrice = quantityParam(fields, 'gasPrice')
  if (to) call.to = to
  if (from) call.from = from
  if (data) call.data = data
  if (value) call.value = value
  if (gasPrice) call.gasPrice = gasPrice
  return call
}

/**
 * Etherscan's `proxy` module: the read-only JSON-RPC calls it passes to its node, answered in
 * JSON-RPC's shape. A block, transaction or receipt the node does not have (its history is
 * short) or cannot give (it is away) comes from the spool in the node's shape; what only the
 * node knows (state, calls, gas) is the JSON-RPC error -32000 while it is away.
 */
export function proxyModule({ db, rpc, chainId }: ProxyDeps): ProxyModule {
  const idOf = (fields: Fields): unknown => {
    const text = fields.get('id')
    if (text === undefined) return 1
    return /^\d{1,15}$/.test(text) ? Number(text) : text.slice(0, 64)
  }
  const answer = (fields: Fields, result: unknown): ProxyAnswer => ({ jsonrpc: '2.0', id: idOf(fields), result })
  const failure = (fields: Fields, code: number, message: string, data?: unknown): ProxyAnswer => ({
    jsonrpc: '2.0',
    id: idOf(fields),
    error: data === undefined ? { code, message } : { code, message, data },
  })

  /** The node's answer, or null when it is away; its errors pass through as they are. */
  const ask = async (method: string, params: unknown[]): Promise<RpcResult | null> => {
    try {
      return (await rpc.batch([{ method, params }]))[0]!
    } catch (error) {
      if (error instanceof NodeUnreachableError) return null
      throw error
    }
  }
  const nodeAway = (fields: Fields) => failure(fields, -32000, 'the node cannot be reached; only the spool answers (blocks, transactions, receipts)')
  const fromNode = (fields: Fields, result: RpcResult | null): ProxyAnswer => {
    if (!result) return nodeAway(fields)
    return result.ok ? answer(fields, result.value) : failure(fields, result.error.code, result.error.nodeMessage, result.error.data)
  }

  /** A proxied call: parameters checked, the node asked, its answer passed on. */
  const nodeOnly = (method: string, params: (fields: Fields) => unknown[]) => action(async (fields) => fromNode(fields, await ask(method, params(fields))))

  /** As nodeOnly, with the spool's answer where the node has none (null) or is away. */
  const withSpool = (method: string, params: (fields: Fields) => unknown[], spool: (fields: Fields) => Promise<unknown>) =>
    action(async (fields) => {
      const node = await ask(method, params(fields))
      if (node && !node.ok) return fromNode(fields, node)
      if (node?.ok && node.value !== null) return answer(fields, node.value)
      const kept = await spool(fields)
      if (kept !== null && kept !== undefined) return answer(fields, kept)
      return node ? answer(fields, null) : nodeAway(fields)
    })

  const action = (run: (fields: Fields) => Promise<ProxyAnswer>) => async (fields: Fields) => {
    try {
      return await run(fields)
    } catch (error) {
      if (error instanceof BadParam) return failure(fields, -32602, error.message)
      throw error
    }
  }

  /** A block tag as the spool reads it: a number, the spool's head for latest, none for the rest. */
  const spoolBlock = async (tag: string): Promise<number | null> => {
    if (tag === 'latest') return await spoolHead(db)
    if (tag === 'earliest') return 0
    return QUANTITY.test(tag) && BigInt(tag) < MAX_BLOCK ? Number(BigInt(tag)) : null
  }
  const txIdByHash = async (hash: string) => (await txByHash(db, blob(hash)))?.id ?? null
  const booleanParam = (fields: Fields): boolean => {
    const text = (fields.get('boolean') ?? 'false').toLowerCase()
    if (text !== 'true' && text !== 'false') throw new BadParam('invalid argument: boolean must be true or false')
    return text === 'true'
  }

  return {
    eth_blockNumber: nodeOnly('eth_blockNumber', () => []),
    eth_gasPrice: nodeOnly('eth_gasPrice', () => []),
    eth_getBlockByNumber: withSpool(
      'eth_getBlockByNumber',
      (fields) => [tagParam(fields), booleanParam(fields)],
      async (fields) => {
        const number = await spoolBlock(tagParam(fields))
        return number === null ? null : await blockShape(db, number, booleanParam(fields), chainId)
      },
    ),
    eth_getBlockTransactionCountByNumber: withSpool(
      'eth_getBlockTransactionCountByNumber',
      (fields) => [tagParam(fields)],
      async (fields) => {
        const number = await spoolBlock(tagParam(fields))
        const block = number === null ? null : await blockShape(db, number, false, chainId)
        return block ? quantityHex(block.transactions.length) : null
      },
    ),
    eth_getTransactionByHash: withSpool(
      'eth_getTransactionByHash',
      (fields) => [hashParam(fields)],
      async (fields) => {
        const id = await txIdByHash(hashParam(fields))
        return id === null ? null : await txShapeById(db, id, chainId)
      },
    ),
    eth_getTransactionByBlockNumberAndIndex: withSpool(
      'eth_getTransactionByBlockNumberAndIndex',
      (fields) => [tagParam(fields), quantityParam(fields, 'index') ?? '0x0'],
      async (fields) => {
        const number = await spoolBlock(tagParam(fields))
        const index = BigInt(quantityParam(fields, 'index') ?? '0x0')
        return number === null || index >= 1n << 20n ? null : await txShapeById(db, txId(number, Number(index)), chainId)
      },
    ),
    eth_getTransactionReceipt: withSpool(
      'eth_getTransactionReceipt',
      (fields) => [hashParam(fields)],
      async (fields) => {
        const id = await txIdByHash(hashParam(fields))
        return id === null ? null : await receiptShape(db, id)
      },
    ),
    eth_getTransactionCount: nodeOnly('eth_getTransactionCount', (fields) => [addressParam(fields, 'address', true), tagParam(fields)]),
    eth_getCode: nodeOnly('eth_getCode', (fields) => [addressParam(fields, 'address', true), tagParam(fields)]),
    eth_getStorageAt: nodeOnly('eth_getStorageAt', (fields) => [addressParam(fields, 'address', true), slotParam(fields), tagParam(fields)]),
    eth_call: nodeOnly('eth_call', (fields) => [callObject(fields), tagParam(fields)]),
    eth_estimateGas: nodeOnly('eth_estimateGas', (fields) => [callObject(fields)]),
    eth_sendRawTransaction: action(async (fields) =>
      failure(fields, -32000, 'eth_sendRawTransaction is refused: this API only reads the chain and never sends a transaction; send it to the node yourself'),
    ),
  }
}
