import { notOk, type ApiAnswer, type EtherscanAnswer, type ProxyAnswer } from './answer.ts'

/** A request's merged fields (query and form), by name as sent. */
export type Fields = ReadonlyMap<string, string>

/** One action of a module: its answer from the request's fields. */
export type Action = (fields: Fields) => EtherscanAnswer | Promise<EtherscanAnswer>

/** A module's actions by their `action` word (`getabi`, `txlist`, ...). */
export type EtherscanModule = Record<string, Action>

/** The proxy module's actions, which answer in JSON-RPC's shape instead. */
export type ProxyModule = Record<string, (fields: Fields) => ProxyAnswer | Promise<ProxyAnswer>>

/**
 * The whole of Etherscan's `/api` in one place: the `module` word picks a module (one file each
 * in modules/), the `action` word one of its functions. An unknown word is Etherscan's own
 * refusal, as a `{status, message, result}` answer with HTTP 200, which is what clients read.
 */
export function dispatcher(modules: Record<string, EtherscanModule | ProxyModule>) {
  return async (fields: Fields): Promise<ApiAnswer> => {
    const moduleName = fields.get('module') ?? ''
    const module = Object.hasOwn(modules, moduleName) ? modules[moduleName] : undefined
    if (!module) return notOk('Error! Missing Or invalid Module name')
    const actionName = fields.get('action') ?? ''
    const action = Object.hasOwn(module, actionName) ? module[actionName] : undefined
    if (!action) return notOk('Error! Missing Or invalid Action name')
    return action(fields)
  }
}
