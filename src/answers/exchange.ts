// The exchange index's JSON answers, as types only: the index builds its answers as these (so a
// field it changes is a type error wherever the answer is read) and the explorer's pages read
// them through the explorer's `/dex` proxy. Nothing here runs; amounts are decimal strings and
// addresses checksummed, as docs/exchange.md "Values" says.

/** A pool side's token as both families show it: the address with its symbol and decimals. */
export type TokenSide = { address: string; symbol: string | null; decimals: number | null }

/** A constant-product pair (`/pools`, `/pool/{pair}`). */
export type Pair = {
  pair: string
  token0: TokenSide
  token1: TokenSide
  reserve0: string
  reserve1: string
  reservesBlock: number | null
  createdBlock: number
  swapCount: number
  mintCount: number
  burnCount: number
  volume0: string
  volume1: string
}

/** A concentrated pool (`/cl/pools`, `/cl/pool/{address}`). */
export type Pool = {
  pool: string
  token0: TokenSide
  token1: TokenSide
  fee: number
  tickSpacing: number
  initialized: boolean
  sqrtPriceX96: string
  tick: number | null
  activeLiquidity: string
  balance0: string
  balance1: string
  price: string | null
  wethBalanceWei: string | null
  createdBlock: number
  swapCount: number
  mintCount: number
  burnCount: number
  collectCount: number
}

/** A list of either family, or one of its rows, with the dollar price of ether beside it (null when unknown). */
export type WithEthUsd = { ethUsd: string | null }

/** `/stats`: the constant-product counters, the concentrated ones nested and never added in. */
export type Counters = {
  pools: number
  swaps: number
  mints: number
  burns: number
  poolsWithEth: number
  poolsWithoutEth: number
  valueEthWei: string
  valueEthDenominator: string
  valueUsd: string | null
  ethUsd: string | null
  concentrated: {
    pools: number
    initializedPools: number
    tiers: number
    swaps: number
    mints: number
    burns: number
    collects: number
    positions: number
    closedPositions: number
    poolsWithEth: number
    poolsWithoutEth: number
    wethBalanceWei: string
  }
}

/** What names a row of an event list: its transaction, its log and its block. */
export type EventId = { txHash: string; logIndex: number; block: number }

/** `/swaps`. */
export type PairSwap = EventId & { pair: string; sender: string; recipient: string; amount0In: string; amount1In: string; amount0Out: string; amount1Out: string }

/** `/events`: a mint or a burn of a pair. */
export type PairEvent = EventId & { pair: string; kind: string; sender: string; recipient: string | null; amount0: string; amount1: string }

/** `/tokens`: a token on either side of a pair, with the number of pairs it is in. */
export type PairToken = TokenSide & { verified: boolean; pools: number }

/** `/cl/tiers`. */
export type Tier = { fee: number; tickSpacing: number; enabledBlock: number }

/** `/cl/positions`. */
export type Position = {
  pool: string
  owner: string
  tickLower: number
  tickUpper: number
  liquidity: string
  deposited0: string
  deposited1: string
  withdrawn0: string
  withdrawn1: string
  collected0: string
  collected1: string
  owed0: string
  owed1: string
  lastBlock: number
  closed: boolean
}

/** `/cl/ticks`: an initialised tick of a pool. */
export type Tick = { tick: number; liquidityGross: string; liquidityNet: string }

/** `/cl/swaps`: amounts from the pool's side, paid in positive and out negative. */
export type PoolSwap = EventId & { pool: string; sender: string; recipient: string; amount0: string; amount1: string; sqrtPriceX96: string; liquidity: string; tick: number }

/** `/cl/events`: a mint, burn or collect of a pool. */
export type PoolEvent = EventId & {
  pool: string
  kind: string
  owner: string
  sender: string | null
  recipient: string | null
  tickLower: number
  tickUpper: number
  liquidity: string | null
  amount0: string
  amount1: string
}

/** The answers that wrap the rows above, by route. */
export type PairList = { pools: Pair[] } & WithEthUsd
export type PoolList = { pools: Pool[] } & WithEthUsd
export type PairSwaps = { swaps: PairSwap[] }
export type PairEvents = { events: PairEvent[] }
export type PairTokens = { tokens: PairToken[] }
export type Tiers = { tiers: Tier[] }
export type Positions = { positions: Position[] }
export type Ticks = { ticks: Tick[] }
export type PoolSwaps = { swaps: PoolSwap[] }
export type PoolEvents = { events: PoolEvent[] }
