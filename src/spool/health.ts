/** How the spool stands, as the services show it (explorer stats, exchange health). */
export type SpoolHealth = {
  chainId: number
  genesisHash: string | null
  /** The last block stored in full; null before the first. */
  spoolHeadBlock: number | null
  /** The node's head when last asked; null before the node answered. */
  nodeHeadBlock: number | null
  lagBlocks: number | null
  /** When the spool last wrote (ISO 8601). */
  updatedAt: string | null
  nodeReachable: boolean
  /** Whether the new-heads WebSocket is open (polling covers the gaps). */
  nodeSocket: boolean
  /** Whether the node gives call traces; null until known. */
  tracesAvailable: boolean | null
  /** Blocks the node no longer has and the spool never got: the spool waits at `from`. */
  historyGap: { from: number; to: number } | null
  /** The last error of the node or of the spool's writes, the first line of its message. */
  lastError: string | null
  /**
   * Why the spool cannot write its file right now (a full disk, a read-only or damaged file),
   * with what to do; null while it can. Not the node's fault: `nodeReachable` stays as it was.
   */
  storageError: string | null
  streams: Record<string, StreamHealth>
}

export type StreamHealth = {
  cursorBlock: number | null
  lagBlocks: number | null
  updatedAt: string | null
  /** Why the stream's last pass failed; null once a pass succeeds. */
  error: string | null
}

export function emptyHealth(chainId: number): SpoolHealth {
  return {
    chainId,
    genesisHash: null,
    spoolHeadBlock: null,
    nodeHeadBlock: null,
    lagBlocks: null,
    updatedAt: null,
    nodeReachable: false,
    nodeSocket: false,
    tracesAvailable: null,
    historyGap: null,
    lastError: null,
    storageError: null,
    streams: {},
  }
}
