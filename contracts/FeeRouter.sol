// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice The chain's fee layer. Token launches, name registrations and the arcade's skims pay
/// their fees here, in ether or in the native token (BX). What arrives is deferred until anyone
/// calls `distribute()`, which splits everything deferred: `burnBps` of it goes to the burn
/// address (ether and BX alike, since BX has no burn function), the rest becomes claimable by the
/// treasury, which takes it with `claim()`. Ether and BX are kept apart in every figure.
contract FeeRouter {
    using SafeERC20 for IERC20;

    /// Where the burned share goes: an address nobody holds the key of.
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;

    /// Who pays a fee. The numbers are part of the ABI (events carry them): append only.
    enum Source {
        Launch,
        Name,
        Arcade
    }

    address public immutable treasury;
    IERC20 public immutable token;
    /// The burned share of each distribution, in basis points; the treasury gets the rest.
    uint256 public immutable burnBps;

    /// Received and not yet split.
    uint256 public deferredEth;
    uint256 public deferredToken;
    /// Split to the treasury and not yet claimed.
    uint256 public claimableEth;
    uint256 public claimableToken;
    /// Totals since deployment.
    uint256 public burnedEth;
    uint256 public burnedToken;
    uint256 public claimedEth;
    uint256 public claimedToken;
    mapping(Source => uint256) public receivedEth;
    mapping(Source => uint256) public receivedToken;

    /// The router's fixed settings, emitted once at deployment so that an indexer of its logs knows them.
    event Configured(address indexed treasury, address indexed token, uint256 burnBps, address burnAddress);
    /// `asset` is the zero address for ether, else the token.
    event FeeReceived(Source indexed source, address indexed from, address indexed asset, uint256 amount);
    event Distributed(address indexed caller, uint256 ethBurned, uint256 ethToTreasury, uint256 tokenBurned, uint256 tokenToTreasury);
    event Claimed(address indexed treasury, uint256 eth, uint256 tokenAmount);

    error NotTreasury(address caller);
    error BadSplit(uint256 burnBps);
    error NothingToDistribute();
    error NothingToClaim();
    error EtherTransferFailed(address to);

    constructor(address treasury_, IERC20 token_, uint256 burnBps_) {
        if (burnBps_ > 10_000) revert BadSplit(burnBps_);
        treasury = treasury_;
        token = token_;
        burnBps = burnBps_;
        emit Configured(treasury_, address(token_), burnBps_, BURN_ADDRESS);
    }

    /// @notice The arcade bank's skim of each stake, in ether.
    function receiveArcadeSkim() external payable {
        _receivedEth(Source.Arcade);
    }

    /// @notice An ether fee from `source`.
    function payEther(Source source) external payable {
        _receivedEth(source);
    }

    /// @notice A token fee from `source`, pulled from the caller (who approved this router).
    function payToken(Source source, uint256 amount) external {
        token.safeTransferFrom(msg.sender, address(this), amount);
        deferredToken += amount;
        receivedToken[source] += amount;
        emit FeeReceived(source, msg.sender, address(token), amount);
    }

    /// @notice Splits everything deferred: the burned share leaves now, the treasury's waits for
    /// its claim. Anyone may call it.
    function distribute() external {
        uint256 eth = deferredEth;
        uint256 tokens = deferredToken;
        if (eth == 0 && tokens == 0) revert NothingToDistribute();
        deferredEth = 0;
        deferredToken = 0;
        uint256 ethBurned = (eth * burnBps) / 10_000;
        uint256 tokenBurned = (tokens * burnBps) / 10_000;
        burnedEth += ethBurned;
        burnedToken += tokenBurned;
        claimableEth += eth - ethBurned;
        claimableToken += tokens - tokenBurned;
        emit Distributed(msg.sender, ethBurned, eth - ethBurned, tokenBurned, tokens - tokenBurned);
        if (tokenBurned > 0) token.safeTransfer(BURN_ADDRESS, tokenBurned);
        if (ethBurned > 0) _sendEther(BURN_ADDRESS, ethBurned);
    }

    /// @notice The treasury takes its split share.
    function claim() external {
        if (msg.sender != treasury) revert NotTreasury(msg.sender);
        uint256 eth = claimableEth;
        uint256 tokens = claimableToken;
        if (eth == 0 && tokens == 0) revert NothingToClaim();
        claimableEth = 0;
        claimableToken = 0;
        claimedEth += eth;
        claimedToken += tokens;
        emit Claimed(msg.sender, eth, tokens);
        if (tokens > 0) token.safeTransfer(msg.sender, tokens);
        if (eth > 0) _sendEther(msg.sender, eth);
    }

    /// @notice Ether held here: deferred plus split to the treasury and not yet claimed.
    function pendingEth() external view returns (uint256) {
        return deferredEth + claimableEth;
    }

    /// @notice Tokens held here: deferred plus split to the treasury and not yet claimed.
    function pendingToken() external view returns (uint256) {
        return deferredToken + claimableToken;
    }

    function _receivedEth(Source source) private {
        deferredEth += msg.value;
        receivedEth[source] += msg.value;
        emit FeeReceived(source, msg.sender, address(0), msg.value);
    }

    function _sendEther(address to, uint256 amount) private {
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert EtherTransferFailed(to);
    }
}
