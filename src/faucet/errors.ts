import { HttpError } from '../http/errors.ts'

// Every way a faucet request can be refused, as a class the caller-facing status belongs to.
// The conventions plugin turns each into `{"error": message, ...extra}`.

/** 429: one of the service's own quotas is used up; `quota` says which. */
export class QuotaExceededError extends HttpError {
  override name = 'QuotaExceededError'
  constructor(
    readonly quota: 'client' | 'address' | 'global' | 'allTime',
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(429, message, { quota, ...extra })
  }
}

/** 409: the contract's one-day cooldown for this address has not run out. */
export class CoolingDownError extends HttpError {
  override name = 'CoolingDownError'
  constructor(
    message: string,
    readonly retryIn: number,
  ) {
    super(409, message, { retryIn })
  }
}

/** 503: the contract holds less than one drip; the message names what is left. */
export class FaucetEmptyError extends HttpError {
  override name = 'FaucetEmptyError'
  constructor(message: string, extra: Record<string, unknown>) {
    super(503, message, extra)
  }
}

/** 503: the drip was refused by the chain (a revert, or a send that failed); opaque on purpose. */
export class DripFailedError extends HttpError {
  override name = 'DripFailedError'
  constructor() {
    super(503, 'drip failed')
  }
}

/** 503: the transaction was sent but no receipt came within the window; it may still land. */
export class NoReceiptYetError extends HttpError {
  override name = 'NoReceiptYetError'
  constructor(readonly hash: string) {
    super(503, 'no receipt yet', { hash })
  }
}

/** 503: the faucet cannot drip at all (no operator key, or no faucet contract known). */
export class FaucetUnavailableError extends HttpError {
  override name = 'FaucetUnavailableError'
  constructor(message: string) {
    super(503, message)
  }
}

/** 502: the node could not be reached; nothing was signed, so a retry is safe. */
export class NodeUnreachableError extends HttpError {
  override name = 'NodeUnreachableError'
  constructor() {
    super(502, 'upstream node unavailable')
  }
}
