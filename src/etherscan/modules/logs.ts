import type { SpoolDb } from '../../spool/engine.ts'
import { blob } from '../../eth/bytes.ts'
import { filterHasIndex, findLogs, logsInRangeExceed, spoolHead, type FoundLog } from '../../spool/read.ts'
import { nothingFound, ok, type EtherscanAnswer } from '../answer.ts'
import type { EtherscanModule, Fields } from '../dispatch.ts'
import { blockRange, integerParam, optionalAddress, Refusal, refusing, RESULT_WINDOW, RESULT_WINDOW_ROWS } from '../params.ts'
import { lower, paidGasPrice, quantityHex } from '../rows.ts'

/** The most logs one getLogs answers, as on Etherscan. */
export const MAX_LOGS = 1000

const TOPIC = /^0x[0-9a-fA-F]{64}$/

/** The most logs a getLogs whose filter no index serves may read (its block range's): some tens of milliseconds. */
export const UNINDEXED_LOGS = 200_000
export const TOO_LARGE = 'Query Timeout occured. Please select a smaller result dataset'

/** A getLogs row as Etherscan writes it: quantities in hex. */
export function logRow(log: FoundLog) {
  return {
    address: lower(log.address),
    topics: [log.topic0, log.topic1, log.topic2, log.topic3].filter((topic) => topic !== null).map((topic) => lower(topic)),
    data: lower(log.data),
    blockNumber: quantityHex(log.blockNumber),
    blockHash: lower(log.blockHash),
    timeStamp: quantityHex(log.timestamp),
    gasPrice: quantityHex(paidGasPrice(log)),
    gasUsed: quantityHex(log.gasUsed),
    logIndex: quantityHex(log.logIndex),
    transactionHash: lower(log.txHash),
    transactionIndex: quantityHex(log.txIndex),
  }
}

/** Etherscan's `logs` module: getLogs from the spool's logs and their indexes. */
export function logsModule(db: SpoolDb): EtherscanModule {
  const getLogs = async (fields: Fields): Promise<EtherscanAnswer> => {
    const head = (await spoolHead(db)) ?? -1
    const range = blockRange(fields, head, ['fromBlock', 'toBlock'])
    const address = optionalAddress(fields, 'address')
    const topics = [0, 1, 2, 3].map((index) => {
      const text = fields.get(`topic${index}`) ?? ''
      if (text === '') return null
      if (!TOPIC.test(text)) throw new Refusal(`Error! Invalid topic${index} format`)
      return blob(text)
    })
    if (!address && topics.every((topic) => topic === null)) throw new Refusal('Error! Missing address or topic parameter')
    // Between each pair of given topics, in order: its topicX_Y_opr, `and` when left out.
    const given = topics.flatMap((topic, index) => (topic ? [index] : []))
    const joins = given.slice(1).map((index, at) => {
      const name = `topic${given[at]}_${index}_opr`
      const word = (fields.get(name) ?? 'and').toLowerCase()
      if (word !== 'and' && word !== 'or') throw new Refusal(`Error! Invalid ${name}, use and or or`)
      return word as 'and' | 'or'
    })
    const page = integerParam(fields, 'page', 1, 'Error! Invalid page number') || 1
    const offset = Math.min(integerParam(fields, 'offset', MAX_LOGS, 'Error! Invalid offset number') || MAX_LOGS, MAX_LOGS)
    if (page * offset > RESULT_WINDOW_ROWS) throw new Refusal(RESULT_WINDOW)
    const filter = { range, address, topics, joins }
    // A filter no index serves reads the range's logs in order; past a budget of them it is
    // refused in Etherscan's words for a query too large, rather than read the whole chain.
    if (!filterHasIndex(filter) && (await logsInRangeExceed(db, range, UNINDEXED_LOGS))) throw new Refusal(TOO_LARGE)
    const logs = await findLogs(db, filter, offset, (page - 1) * offset)
    return logs.length === 0 ? nothingFound('No records found') : ok(logs.map(logRow))
  }
  return { getLogs: refusing(getLogs) }
}
