import type { SpoolDb } from '../../spool/engine.ts'
import type { Hex } from 'viem'
import type { ContractBook } from '../../contracts/book.ts'
import { decodeWith } from '../../decode/decode.ts'
import { decodeRevert } from '../../decode/revert.ts'
import { txByHash, txTrace } from '../../spool/read.ts'
import { ok, type EtherscanAnswer } from '../answer.ts'
import type { EtherscanModule, Fields } from '../dispatch.ts'
import { hashParam, refusing } from '../params.ts'
import { lower } from '../rows.ts'

/**
 * Etherscan's `transaction` module, from the spool. A transaction the spool does not hold reads
 * as Etherscan answers an unknown one. A revert's description is the one decoder's reading of its
 * revert data (a reason string, a panic's meaning, a custom error of the contract's ABI or the
 * stack's own), else the node's word for the failure.
 */
export function transactionModule(db: SpoolDb, book: ContractBook): EtherscanModule {
  const getstatus = async (fields: Fields): Promise<EtherscanAnswer> => {
    const tx = await txByHash(db, hashParam(fields))
    if (!tx || tx.status === 1) return ok({ isError: '0', errDescription: '' })
    const trace = await txTrace(db, tx.id)
    if (!trace) return ok({ isError: '1', errDescription: 'Reverted' })
    const using = decodeWith(tx.to ? await book.lookup(lower(tx.to)) : null)
    return ok({ isError: '1', errDescription: decodeRevert(trace.output as Hex | null, using, trace.error ?? 'Reverted').message })
  }
  const gettxreceiptstatus = async (fields: Fields): Promise<EtherscanAnswer> => {
    const tx = await txByHash(db, hashParam(fields))
    return ok({ status: tx ? String(tx.status) : '' })
  }
  return { getstatus: refusing(getstatus), gettxreceiptstatus: refusing(gettxreceiptstatus) }
}
