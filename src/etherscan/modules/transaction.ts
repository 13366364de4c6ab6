import type { Database } from 'bun:sqlite'
import { decodeErrorResult, type Hex } from 'viem'
import { txByHash, txTrace } from '../../spool/read.ts'
import { ok, type EtherscanAnswer } from '../answer.ts'
import type { EtherscanModule, Fields } from '../dispatch.ts'
import { hashParam, refusing } from '../params.ts'

/**
 * Why a call reverted, as Etherscan's errDescription says it: the reason string of
 * `Error(string)`, `Panic(0x..)` for a panic code, else the node's word for the failure.
 */
export function revertReason(error: string | null, output: string | null): string {
  if (output && output.length >= 10) {
    try {
      const decoded = decodeErrorResult({ data: output as Hex })
      if (decoded.errorName === 'Error') return String(decoded.args?.[0] ?? '')
      if (decoded.errorName === 'Panic') return `Panic(0x${BigInt(decoded.args?.[0] as bigint).toString(16)})`
    } catch {
      // A custom error: its selector alone says nothing more than the node's word.
    }
  }
  return error ?? 'Reverted'
}

/** Etherscan's `transaction` module, from the spool. A transaction the spool does not hold reads as Etherscan answers an unknown one. */
export function transactionModule(db: Database): EtherscanModule {
  const getstatus = (fields: Fields): EtherscanAnswer => {
    const tx = txByHash(db, hashParam(fields))
    if (!tx || tx.status === 1) return ok({ isError: '0', errDescription: '' })
    const trace = txTrace(db, tx.id)
    return ok({ isError: '1', errDescription: trace ? revertReason(trace.error, trace.output) : 'Reverted' })
  }
  const gettxreceiptstatus = (fields: Fields): EtherscanAnswer => {
    const tx = txByHash(db, hashParam(fields))
    return ok({ status: tx ? String(tx.status) : '' })
  }
  return { getstatus: refusing(getstatus), gettxreceiptstatus: refusing(gettxreceiptstatus) }
}
