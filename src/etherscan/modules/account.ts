import type { SpoolDb } from '../../spool/engine.ts'
import type { Address } from 'viem'
import type { Rpc } from '../../chain/rpc.ts'
import type { ContractBook } from '../../contracts/book.ts'
import { createCache } from '../../cache.ts'
import { checksum } from '../../eth/address.ts'
import { hex } from '../../eth/bytes.ts'
import { uintDecimal } from '../../eth/words.ts'
import {
  addressTxIds,
  blockFees,
  internalCallTxIds,
  internalCalls,
  internalCallsOf,
  minedBlocks,
  spoolHead,
  spoolTip,
  type BlockRange,
  type ListPage,
  transferLogs,
  txByHash,
  txsInFull,
  txTrace,
  type FoundLog,
  type TokenStandard,
  type TxInBlock,
} from '../../spool/read.ts'
import { nothingFound, ok, type EtherscanAnswer } from '../answer.ts'
import type { EtherscanModule, Fields } from '../dispatch.ts'
import { readTokenUint, type TokenInfo } from '../node.ts'
import { addressParam, blockRange, RESULT_WINDOW_ROWS, hashParam, latestTag, listPage, optionalAddress, Refusal, refusing, INVALID_ADDRESS } from '../params.ts'
import { callKey, confirmations, functionNames, lower, paidGasPrice, type RowCall } from '../rows.ts'
import { blockReward } from './block.ts'

export type AccountDeps = { db: SpoolDb; rpc: Rpc; book: ContractBook; tokenInfo: (token: Uint8Array) => Promise<TokenInfo> }

/** The most addresses one balancemulti reads. */
const MAX_BALANCES = 20
const NO_TRANSACTIONS = 'No transactions found'
/** The address windows kept at once: each at most the paging rule's 10,000 ids. */
const KEPT_WINDOWS = 64

/**
 * The ids of an address's transactions from the start of its list (in the page's order) as far
 * as pages have been asked, kept while the spool holds the same head: a script that walks the
 * pages of one address reads its index once (a page past the window read so far reads it again,
 * at least twice as far), and a page asked again reads none. Etherscan's paging rule bounds a
 * window to 10,000 ids. `whole` when the list ended before the window did.
 */
type Window = { head: string; ids: number[]; whole: boolean }

function addressWindows(db: SpoolDb) {
  const windows = createCache<string, Window>({ max: KEPT_WINDOWS })
  /** `tip`: the spool's head and its hash (spoolTip), which a block added or taken back by a reorganisation changes. */
  return async (address: Uint8Array, range: BlockRange, page: ListPage, tip: { head: number | null; hash: Uint8Array | null }): Promise<number[]> => {
    const key = `${hex(address)}:${range.first}:${range.last}:${page.newestFirst}`
    const head = `${tip.head}:${tip.hash ? hex(tip.hash) : ''}`
    const end = page.offset + page.limit
    let window = windows.get(key)
    if (!window || window.head !== head || (!window.whole && window.ids.length < end)) {
      const reach = Math.max(end, Math.min(2 * (window?.head === head ? window.ids.length : 0), RESULT_WINDOW_ROWS))
      const ids = await addressTxIds(db, address, range, { offset: 0, limit: reach, newestFirst: page.newestFirst })
      window = { head, ids, whole: ids.length < reach }
      windows.set(key, window)
    }
    return window.ids.slice(page.offset, end)
  }
}

/** Etherscan's `account` module: balances from the node, every list from the spool's indexes. */
export function accountModule({ db, rpc, book, tokenInfo }: AccountDeps): EtherscanModule {
  const head = async () => (await spoolHead(db)) ?? -1
  const txIdsOf = addressWindows(db)

  const balanceOf = async (address: Uint8Array): Promise<string> => BigInt(await rpc.call<string>('eth_getBalance', [hex(address), 'latest'])).toString()

  const txRow = (tx: TxInBlock, top: number, call: RowCall, names: Map<string, string>) => ({
    blockNumber: String(tx.blockNumber),
    timeStamp: String(tx.timestamp),
    hash: lower(tx.hash),
    nonce: String(tx.nonce),
    blockHash: lower(tx.blockHash),
    transactionIndex: String(tx.index),
    from: lower(tx.from),
    to: call.to,
    value: tx.value,
    gas: String(tx.gas),
    gasPrice: paidGasPrice(tx),
    isError: tx.status === 1 ? '0' : '1',
    txreceipt_status: String(tx.status),
    input: call.input,
    contractAddress: lower(tx.created),
    cumulativeGasUsed: String(tx.cumulativeGasUsed),
    gasUsed: String(tx.gasUsed),
    confirmations: confirmations(top, tx.blockNumber),
    methodId: call.input.length >= 10 ? call.input.slice(0, 10) : '0x',
    functionName: names.get(callKey(call)) ?? '',
  })

  const txlist = async (fields: Fields): Promise<EtherscanAnswer> => {
    const address = addressParam(fields)
    const tip = await spoolTip(db)
    const top = tip.head ?? -1
    const range = blockRange(fields, top)
    const page = listPage(fields)
    const txs = await txsInFull(db, await txIdsOf(address, range, page, tip))
    if (txs.length === 0) return nothingFound(NO_TRANSACTIONS)
    const calls = txs.map((tx): RowCall => ({ to: lower(tx.to), input: lower(tx.input) }))
    const names = await functionNames(book, calls)
    return ok(txs.map((tx, index) => txRow(tx, top, calls[index]!, names)))
  }

  const txlistinternal = async (fields: Fields): Promise<EtherscanAnswer> => {
    const top = await head()
    const txhash = fields.get('txhash') ?? ''
    const address = txhash === '' ? optionalAddress(fields, 'address') : null
    const range = blockRange(fields, top)
    const page = listPage(fields)
    let ids: number[]
    if (txhash !== '') {
      const tx = await txByHash(db, hashParam(fields))
      ids = tx ? [tx.id] : []
    } else {
      if (!address && !fields.has('startblock') && !fields.has('endblock')) throw new Refusal(INVALID_ADDRESS)
      ids = await internalCallTxIds(db, address, range, page.offset + page.limit, page.newestFirst)
    }
    const wanted = lower(address)
    const rows = []
    for (const tx of await txsInFull(db, ids)) {
      const trace = await txTrace(db, tx.id)
      if (!trace) continue
      const calls = wanted ? internalCallsOf(trace, wanted) : internalCalls(trace)
      if (page.newestFirst) calls.reverse()
      for (const { frame, traceId } of calls) {
        const creation = frame.type.startsWith('CREATE')
        rows.push({
          blockNumber: String(tx.blockNumber),
          timeStamp: String(tx.timestamp),
          hash: lower(tx.hash),
          from: frame.from.toLowerCase(),
          to: creation ? '' : (frame.to ?? '').toLowerCase(),
          value: BigInt(frame.value ?? '0x0').toString(),
          contractAddress: creation ? (frame.to ?? '').toLowerCase() : '',
          input: '',
          type: frame.type.toLowerCase(),
          gas: BigInt(frame.gas ?? '0x0').toString(),
          gasUsed: BigInt(frame.gasUsed ?? '0x0').toString(),
          traceId,
          isError: frame.error ? '1' : '0',
          errCode: frame.error ?? '',
        })
      }
    }
    const pageRows = rows.slice(page.offset, page.offset + page.limit)
    return pageRows.length === 0 ? nothingFound(NO_TRANSACTIONS) : ok(pageRows)
  }

  /** tokentx, tokennfttx and token1155tx: one standard's transfers of a holder and/or a token. */
  const tokenList = (standard: TokenStandard) => async (fields: Fields): Promise<EtherscanAnswer> => {
    const holder = optionalAddress(fields, 'address')
    const token = optionalAddress(fields, 'contractaddress')
    if (!holder && !token) throw new Refusal(INVALID_ADDRESS)
    const top = await head()
    const range = blockRange(fields, top)
    const page = listPage(fields)
    const logs = await transferLogs(db, standard, { holder, token, range, limit: page.offset + page.limit, newestFirst: page.newestFirst })
    const moves = logs.flatMap((log) => transfersIn(log, standard, holder))
    const pageMoves = moves.slice(page.offset, page.offset + page.limit)
    if (pageMoves.length === 0) return nothingFound(NO_TRANSACTIONS)
    const txs = new Map((await txsInFull(db, [...new Set(pageMoves.map((move) => move.log.txId))])).map((tx) => [tx.id, tx]))
    // Each token of the page read once, all at once (kept ten minutes after).
    const tokens = new Map(pageMoves.map((move) => [lower(move.log.address), move.log.address]))
    const infos = new Map(await Promise.all([...tokens].map(async ([key, token]) => [key, await tokenInfo(token)] as const)))
    const rows = pageMoves.flatMap(({ log, from, to, id, amount }) => {
      const tx = txs.get(log.txId)
      if (!tx) return []
      const info = infos.get(lower(log.address))!
      const row: Record<string, string> = {
        blockNumber: String(log.blockNumber),
        timeStamp: String(log.timestamp),
        hash: lower(log.txHash),
        nonce: String(tx.nonce),
        blockHash: lower(log.blockHash),
        from,
        contractAddress: lower(log.address),
        to,
      }
      if (standard === 20) row.value = amount
      else row.tokenID = id
      if (standard === 1155) row.tokenValue = amount
      Object.assign(row, {
        tokenName: info.name,
        tokenSymbol: info.symbol,
        ...(standard === 1155 ? {} : { tokenDecimal: standard === 721 ? '0' : info.decimals }),
        transactionIndex: String(log.txIndex),
        gas: String(tx.gas),
        gasPrice: paidGasPrice(tx),
        gasUsed: String(tx.gasUsed),
        cumulativeGasUsed: String(tx.cumulativeGasUsed),
        input: 'deprecated',
        confirmations: confirmations(top, log.blockNumber),
      })
      return [row]
    })
    return ok(rows)
  }

  const getminedblocks = async (fields: Fields): Promise<EtherscanAnswer> => {
    const miner = addressParam(fields)
    const type = fields.get('blocktype') ?? 'blocks'
    if (type !== 'blocks' && type !== 'uncles') throw new Refusal('Error! Invalid blocktype')
    if (type === 'uncles') return nothingFound(NO_TRANSACTIONS)
    const top = await head()
    const blocks = await minedBlocks(db, miner, blockRange(fields, top), listPage(fields))
    if (blocks.length === 0) return nothingFound(NO_TRANSACTIONS)
    const fees = await Promise.all(blocks.map((block) => blockFees(db, block.number)))
    return ok(blocks.map((block, index) => ({ blockNumber: String(block.number), timeStamp: String(block.timestamp), blockReward: blockReward(fees[index]!, block.baseFee) })))
  }

  return {
    balance: refusing(async (fields) => {
      const address = addressParam(fields)
      latestTag(fields)
      return ok(await balanceOf(address))
    }),
    balancemulti: refusing(async (fields) => {
      const list = (fields.get('address') ?? '').split(',').map((text) => text.trim())
      if (list.length > MAX_BALANCES) throw new Refusal(`Error! Maximum of ${MAX_BALANCES} addresses`)
      latestTag(fields)
      const addresses = list.map((text) => addressParam(new Map([['address', text]])))
      const balances = await Promise.all(addresses.map(balanceOf))
      return ok(addresses.map((address, index) => ({ account: lower(address), balance: balances[index] })))
    }),
    tokenbalance: refusing(async (fields) => {
      const token = addressParam(fields, 'contractaddress')
      const holder = addressParam(fields)
      latestTag(fields)
      const balance = await readTokenUint(rpc, checksum(token) as Address, { functionName: 'balanceOf', holder: checksum(holder) })
      return ok(balance ?? '0')
    }),
    txlist: refusing(txlist),
    txlistinternal: refusing(txlistinternal),
    tokentx: refusing(tokenList(20)),
    tokennfttx: refusing(tokenList(721)),
    token1155tx: refusing(tokenList(1155)),
    getminedblocks: refusing(getminedblocks),
  }
}

/** One token movement of a transfer log, with addresses lower-case and amounts decimal. */
type Move = { log: FoundLog; from: string; to: string; id: string; amount: string }

/** The movements a transfer log holds (a TransferBatch several), those of `holder` alone when one is asked for. */
function transfersIn(log: FoundLog, standard: TokenStandard, holder: Uint8Array | null): Move[] {
  const party = (topic: Uint8Array | null) => lower(topic ? topic.subarray(12, 32) : null)
  let moves: Move[]
  if (standard === 20) moves = [{ log, from: party(log.topic1), to: party(log.topic2), id: '', amount: log.data.length >= 32 ? uintDecimal(log.data, 0) : '0' }]
  else if (standard === 721) moves = [{ log, from: party(log.topic1), to: party(log.topic2), id: uintDecimal(log.topic3!, 0), amount: '1' }]
  else if (log.data.length === 64) moves = [{ log, from: party(log.topic2), to: party(log.topic3), id: uintDecimal(log.data, 0), amount: uintDecimal(log.data, 1) }]
  else moves = batchMoves(log, party(log.topic2), party(log.topic3))
  const wanted = holder ? lower(holder) : null
  return wanted ? moves.filter((move) => move.from === wanted || move.to === wanted) : moves
}

/** A TransferBatch's ids and values: two dynamic uint256 arrays. */
function batchMoves(log: FoundLog, from: string, to: string): Move[] {
  const word = (index: number) => (log.data.length >= (index + 1) * 32 ? BigInt(uintDecimal(log.data, index)) : -1n)
  const idsAt = word(0)
  const valuesAt = word(1)
  if (idsAt < 0n || valuesAt < 0n || idsAt % 32n !== 0n || valuesAt % 32n !== 0n) return []
  const count = word(Number(idsAt / 32n))
  if (count < 0n || count !== word(Number(valuesAt / 32n)) || count > 10_000n) return []
  const moves: Move[] = []
  for (let index = 1; index <= Number(count); index++) {
    const id = word(Number(idsAt / 32n) + index)
    const amount = word(Number(valuesAt / 32n) + index)
    if (id < 0n || amount < 0n) return []
    moves.push({ log, from, to, id: id.toString(), amount: amount.toString() })
  }
  return moves
}
