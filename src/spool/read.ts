// The spool's read API: how services read what the spool holds, without touching its tables
// (meta, stream_cursors, blocks, txs, logs, minis, traces, contract_creations) or their indexes. Every function takes
// the spool's read-only connection (Spool.reader). By resource:
//   read/cursors.ts       the spool's head, each derived stream's position and lag, a version of cursors
//   read/blocks.ts        blocks and mini-blocks: by number, hash, range, newest first, counts
//   read/transactions.ts  transactions by id, hash, block, address; their logs and traces; refs for a page of ids;
//                         the calls one address sent another; the transaction key (txId) and the call tree's type
//   read/creations.ts     who created a contract, in which transaction, with what creation input
export * from './read/blocks.ts'
export * from './read/creations.ts'
export * from './read/cursors.ts'
export * from './read/transactions.ts'
