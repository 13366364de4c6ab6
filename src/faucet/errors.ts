import { ConflictError, LimitError, UnavailableError } from '../errors.ts'

// Every way a drip can be refused, as the kind of error the caller-facing status belongs to
// (the conventions plugin maps kinds to statuses; details go into the JSON body).

/** 429: one of the service's own quotas is used up; `quota` says which. */
export class QuotaExceededError extends LimitError {
  override name = 'QuotaExceededError'
  constructor(
    readonly quota: 'client' | 'address' | 'global' | 'allTime',
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, { details: { quota, ...details } })
  }
}

/** 409: the contract's one-day cooldown for this address has not run out. */
export class CoolingDownError extends ConflictError {
  override name = 'CoolingDownError'
  constructor(
    message: string,
    readonly retryIn: number,
  ) {
    super(message, { details: { retryIn } })
  }
}

/** 503: the contract holds less than one drip; the message names what is left. */
export class FaucetEmptyError extends UnavailableError {
  override name = 'FaucetEmptyError'
}

/** 503: the drip was refused by the chain (a revert, or a send that failed); opaque on purpose. */
export class DripFailedError extends UnavailableError {
  override name = 'DripFailedError'
  constructor() {
    super('drip failed')
  }
}

/** 503: the transaction was sent but no receipt came within the window; it may still land. */
export class NoReceiptYetError extends UnavailableError {
  override name = 'NoReceiptYetError'
  constructor(readonly hash: string) {
    super('no receipt yet', { details: { hash } })
  }
}

/** 503: the faucet cannot drip at all (no operator key, no faucet contract known, no journal). */
export class FaucetUnavailableError extends UnavailableError {
  override name = 'FaucetUnavailableError'
}
