/** The faucet's fixed limits (spec 02 "Limits"); the all-time budget comes from the config. */
export const DAILY_PER_CLIENT = 5
export const DAILY_PER_ADDRESS = 2
export const DAILY_GLOBAL = 1000
/** A drip request body may be at most this many bytes. */
export const MAX_BODY_BYTES = 4096
