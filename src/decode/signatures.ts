import { parseAbi, type Abi } from 'viem'
import { stackErrors } from './stackErrors.ts' with { type: 'macro' }

/**
 * The methods named in transactions when the called contract's own ABI is not known: the common token standards, wrapped ether,
 * the Uniswap V2 and V3 routers, pairs, factories and position manager, the faucet, the arcade
 * bank and its games, the fee router, the name registry, the token launcher, the price feed, and
 * the multicall forms. Anything else shows its selector. The table is
 * plain signatures so adding one is a one-line change.
 */
export const METHOD_SIGNATURES = [
  // ERC-20
  'function transfer(address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function increaseAllowance(address spender, uint256 addedValue)',
  'function decreaseAllowance(address spender, uint256 subtractedValue)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function balanceOf(address owner)',
  'function allowance(address owner, address spender)',
  'function totalSupply()',
  // ERC-721 and ERC-1155 (transferFrom shares ERC-20's selector: see NFT_METHOD_SIGNATURES)
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
  'function mint(address to, string uri)',
  // WETH
  'function deposit()',
  'function withdraw(uint256 wad)',
  // Uniswap V2: router
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline)',
  'function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)',
  'function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  // Uniswap V2: factory and pair
  'function createPair(address tokenA, address tokenB)',
  'function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)',
  'function mint(address to)',
  'function burn(address to)',
  'function skim(address to)',
  'function sync()',
  // Uniswap V3: swap router
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)',
  'function exactInput((bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params)',
  'function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params)',
  'function exactOutput((bytes path, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum) params)',
  'function unwrapWETH9(uint256 amountMinimum, address recipient)',
  'function refundETH()',
  'function sweepToken(address token, uint256 amountMinimum, address recipient)',
  // Uniswap V3: the pool and the callbacks it makes (seen inside traces)
  'function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes data)',
  'function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes data)',
  'function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes data)',
  // Uniswap V3: position manager and factory
  'function mint((address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint256 amount0Desired, uint256 amount1Desired, uint256 amount0Min, uint256 amount1Min, address recipient, uint256 deadline) params)',
  'function increaseLiquidity((uint256 tokenId, uint256 amount0Desired, uint256 amount1Desired, uint256 amount0Min, uint256 amount1Min, uint256 deadline) params)',
  'function decreaseLiquidity((uint256 tokenId, uint128 liquidity, uint256 amount0Min, uint256 amount1Min, uint256 deadline) params)',
  'function collect((uint256 tokenId, address recipient, uint128 amount0Max, uint128 amount1Max) params)',
  'function burn(uint256 tokenId)',
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96)',
  'function createPool(address tokenA, address tokenB, uint24 fee)',
  // The faucet
  'function dripTo(address to)',
  'function setAmounts(uint256 ethAmount, uint256 tokenAmount)',
  // The arcade: the bank (deposit() and withdraw(uint256) share WETH's selectors) and its games
  'function fundHouse()',
  'function setGame(address game, bool enabled)',
  'function setFeeRouter(address router)',
  'function stake(address player, uint256 amount, uint256 reserve)',
  'function settle(address player, uint256 reserve, uint256 payout)',
  'function settle(uint256 betId)',
  'function place(bool heads, uint256 stake)',
  'function place(uint8 rollUnder, uint256 stake)',
  'function place(uint32 cashOutX100, uint256 stake)',
  'function place(uint8 kind, uint8 number, uint256 stake)',
  'function spin(uint256 stake)',
  'function drop(uint8 risk, uint256 stake)',
  'function place(uint8 mines, uint32 picks, uint256 stake)',
  'function buy(uint32 tickets)',
  'function draw()',
  // The fee router
  'function receiveArcadeSkim()',
  'function payEther(uint8 source)',
  'function payToken(uint8 source, uint256 amount)',
  'function distribute()',
  'function claim()',
  // The name registry
  'function register(string label, uint256 yearCount)',
  'function renew(string label, uint256 yearCount)',
  'function transfer(string label, address to)',
  'function setResolved(string label, address resolved)',
  'function setText(string label, string key, string value)',
  'function setReverse(string label)',
  'function setReserved(string label, bool isReserved)',
  // The token launcher
  'function launch(string name, string symbol, uint256 supply, uint256 liquidityTokens)',
  // The ETH/USD price feed
  'function update(int256 answer)',
  // Multicall: the periphery's and Multicall3's
  'function multicall(bytes[] data)',
  'function multicall(uint256 deadline, bytes[] data)',
  'function aggregate((address target, bytes callData)[] calls)',
  'function tryAggregate(bool requireSuccess, (address target, bytes callData)[] calls)',
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls)',
  'function aggregate3Value((address target, bool allowFailure, uint256 value, bytes callData)[] calls)',
] as const

/** ERC-721's transferFrom has ERC-20's selector; on a known NFT contract the argument is an id. */
export const NFT_METHOD_SIGNATURES = ['function transferFrom(address from, address to, uint256 tokenId)'] as const

/** The events named in a transaction's logs. Same-signature events differ by what is indexed. */
export const EVENT_SIGNATURES = [
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)',
  'event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'event Collect(uint256 indexed tokenId, address recipient, uint256 amount0, uint256 amount1)',
  'event Drip(address indexed to, uint256 ethAmount, uint256 tokenAmount)',
  'event Funded(address indexed from, uint256 amount)',
  // The arcade bank and its games
  'event Deposited(address indexed player, uint256 amount)',
  'event Withdrawn(address indexed player, uint256 amount)',
  'event HouseFunded(address indexed from, uint256 amount)',
  'event GameEnabled(address indexed game, bool enabled)',
  'event Staked(address indexed game, address indexed player, uint256 amount, uint256 reserved)',
  'event Settled(address indexed game, address indexed player, uint256 reserved, uint256 payout)',
  'event FeeRouterSet(address indexed feeRouter)',
  'event Skimmed(address indexed game, address indexed player, address indexed feeRouter, uint256 amount)',
  'event FlipPlaced(uint256 indexed betId, address indexed player, bool heads, uint256 stake, uint256 placedAt)',
  'event FlipSettled(uint256 indexed betId, address indexed player, bool heads, bool landedHeads, uint256 payout)',
  'event FlipRefunded(uint256 indexed betId, address indexed player, uint256 stake)',
  'event DicePlaced(uint256 indexed betId, address indexed player, uint8 rollUnder, uint256 stake, uint256 payoutIfWon)',
  'event DiceRolled(uint256 indexed betId, address indexed player, uint8 rollUnder, uint8 roll, uint256 payout)',
  'event DiceRefunded(uint256 indexed betId, address indexed player, uint256 stake)',
  'event CrashPlaced(uint256 indexed betId, address indexed player, uint32 cashOutX100, uint256 stake, uint256 payoutIfWon)',
  'event Crashed(uint256 indexed betId, address indexed player, uint32 cashOutX100, uint256 crashX100, uint256 payout)',
  'event CrashRefunded(uint256 indexed betId, address indexed player, uint256 stake)',
  'event RoulettePlaced(uint256 indexed betId, address indexed player, uint8 kind, uint8 number, uint256 stake, uint256 payoutIfWon)',
  'event RouletteSpun(uint256 indexed betId, address indexed player, uint8 kind, uint8 number, uint8 pocket, uint256 payout)',
  'event RouletteRefunded(uint256 indexed betId, address indexed player, uint256 stake)',
  'event SlotsPlaced(uint256 indexed betId, address indexed player, uint256 stake)',
  'event SlotsSpun(uint256 indexed betId, address indexed player, uint8[3] reels, uint256 multiplierX100, uint256 payout)',
  'event SlotsRefunded(uint256 indexed betId, address indexed player, uint256 stake)',
  'event PlinkoPlaced(uint256 indexed betId, address indexed player, uint8 risk, uint256 stake)',
  'event PlinkoDropped(uint256 indexed betId, address indexed player, uint8 risk, uint8 path, uint8 bucket, uint256 multiplierX100, uint256 payout)',
  'event PlinkoRefunded(uint256 indexed betId, address indexed player, uint256 stake)',
  'event MinesPlaced(uint256 indexed betId, address indexed player, uint8 mines, uint32 picks, uint256 stake, uint256 payoutIfWon)',
  'event MinesRevealed(uint256 indexed betId, address indexed player, uint8 mines, uint32 picks, uint32 minesMask, uint256 payout)',
  'event MinesRefunded(uint256 indexed betId, address indexed player, uint256 stake)',
  'event TicketsBought(uint256 indexed round, address indexed player, uint32 tickets, uint256 cost, uint256 endsAt)',
  'event LotteryDrawn(uint256 indexed round, address indexed winner, uint256 winningTicket, uint256 tickets, uint256 pot, uint256 prize)',
  'event LotteryRefunded(uint256 indexed round, uint256 entries, uint256 pot)',
  // The fee router
  'event Configured(address indexed treasury, address indexed token, uint256 burnBps, address burnAddress)',
  'event FeeReceived(uint8 indexed source, address indexed from, address indexed asset, uint256 amount)',
  'event Distributed(address indexed caller, uint256 ethBurned, uint256 ethToTreasury, uint256 tokenBurned, uint256 tokenToTreasury)',
  'event Claimed(address indexed treasury, uint256 eth, uint256 tokenAmount)',
  // The name registry
  'event NameRegistered(bytes32 indexed id, address indexed owner, string label, uint256 expires, uint256 fee)',
  'event NameRenewed(bytes32 indexed id, string label, uint256 expires, uint256 fee)',
  'event NameTransferred(bytes32 indexed id, address indexed from, address indexed to)',
  'event ResolvedChanged(bytes32 indexed id, address resolved)',
  'event TextChanged(bytes32 indexed id, string key, string value)',
  'event ReverseChanged(address indexed account, string label)',
  'event ReservedChanged(bytes32 indexed id, string label, bool reserved)',
  // The token launcher
  'event TokenLaunched(address indexed token, address indexed pair, address indexed creator, string name, string symbol, uint256 supply, uint256 liquidityTokens, uint256 liquidityEth, uint256 fee)',
  // The ETH/USD price feed (Chainlink's events)
  'event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)',
  'event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt)',
] as const

export const methodAbi = parseAbi(METHOD_SIGNATURES)
export const nftMethodAbi = parseAbi(NFT_METHOD_SIGNATURES)
export const eventAbi = parseAbi(EVENT_SIGNATURES)

export type AbiError = Extract<Abi[number], { type: 'error' }>

/**
 * The custom errors of the stack's own contracts (the faucet's `NotOperator`, the arcade's
 * `StakeOutOfRange`...), taken from their compiled ABIs when the code is built, so a revert of a
 * contract nobody verified is still named.
 */
export const errorAbi = stackErrors() as unknown as readonly AbiError[]
