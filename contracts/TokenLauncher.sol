// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

interface ILauncherV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface ILauncherV2Pair {
    function mint(address to) external returns (uint256 liquidity);
}

interface ILauncherWETH {
    function deposit() external payable;
    function transfer(address to, uint256 value) external returns (bool);
}

interface ILauncherFeeRouter {
    function payEther(uint8 source) external payable;
}

/// @notice A token made by the launcher: a fixed supply with 18 decimals, no owner, no mint, no
/// fee switch. Launched tokens are not reviewed: they carry no verified mark until listed.
contract LaunchedToken is ERC20 {
    constructor(string memory name_, string memory symbol_, uint256 supply, address holder) ERC20(name_, symbol_) {
        _mint(holder, supply);
    }
}

/// @notice One transaction launches a token: it creates the ERC-20, creates its constant-product
/// pair with wrapped ether on the exchange's factory, puts `liquidityTokens` of the supply and the
/// ether sent (less the launch fee) into the pair as its first liquidity (the pool shares go to
/// the creator, as does the rest of the supply), and pays the launch fee to the fee router.
contract TokenLauncher {
    /// The fee router's source number for launches (FeeRouter.Source.Launch).
    uint8 private constant SOURCE_LAUNCH = 0;

    ILauncherV2Factory public immutable factory;
    ILauncherWETH public immutable weth;
    ILauncherFeeRouter public immutable feeRouter;
    /// Ether every launch pays to the fee router.
    uint256 public immutable launchFee;

    /// Every token launched here, in order.
    address[] public tokens;

    event TokenLaunched(
        address indexed token,
        address indexed pair,
        address indexed creator,
        string name,
        string symbol,
        uint256 supply,
        uint256 liquidityTokens,
        uint256 liquidityEth,
        uint256 fee
    );

    error BadSupply(uint256 supply, uint256 liquidityTokens);
    error NotEnoughEther(uint256 sent, uint256 fee);
    error BadName();

    constructor(ILauncherV2Factory factory_, ILauncherWETH weth_, ILauncherFeeRouter feeRouter_, uint256 launchFee_) {
        factory = factory_;
        weth = weth_;
        feeRouter = feeRouter_;
        launchFee = launchFee_;
    }

    /// @notice Launches `name` (`symbol`) with `supply` base units (18 decimals); `liquidityTokens`
    /// of them and `msg.value - launchFee` wei of ether become the pair's first liquidity.
    function launch(string calldata name, string calldata symbol, uint256 supply, uint256 liquidityTokens)
        external
        payable
        returns (address token, address pair)
    {
        if (bytes(name).length == 0 || bytes(name).length > 40 || bytes(symbol).length == 0 || bytes(symbol).length > 20) revert BadName();
        if (liquidityTokens == 0 || liquidityTokens > supply) revert BadSupply(supply, liquidityTokens);
        if (msg.value <= launchFee) revert NotEnoughEther(msg.value, launchFee);
        uint256 liquidityEth = msg.value - launchFee;

        token = address(new LaunchedToken(name, symbol, supply, address(this)));
        pair = factory.createPair(token, address(weth));
        tokens.push(token);

        LaunchedToken(token).transfer(pair, liquidityTokens);
        if (supply > liquidityTokens) LaunchedToken(token).transfer(msg.sender, supply - liquidityTokens);
        weth.deposit{value: liquidityEth}();
        weth.transfer(pair, liquidityEth);
        ILauncherV2Pair(pair).mint(msg.sender);

        emit TokenLaunched(token, pair, msg.sender, name, symbol, supply, liquidityTokens, liquidityEth, launchFee);
        feeRouter.payEther{value: launchFee}(SOURCE_LAUNCH);
    }

    /// @notice How many tokens were launched.
    function launchCount() external view returns (uint256) {
        return tokens.length;
    }
}
