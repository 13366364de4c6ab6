// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice The chain's faucet. Only the operator (the faucet service's key) may drip; each drip
/// sends `ethAmount` wei and `tokenAmount` of the native token, and an address may receive one
/// drip a day. The cooldown lives here, on chain, so no service state can bypass it.
contract Faucet {
    using SafeERC20 for IERC20;

    uint256 public constant COOLDOWN = 1 days;

    address public immutable operator;
    IERC20 public immutable token;
    uint256 public ethAmount;
    uint256 public tokenAmount;
    mapping(address => uint256) public lastDripAt;

    event Drip(address indexed to, uint256 ethAmount, uint256 tokenAmount);
    event AmountsChanged(uint256 ethAmount, uint256 tokenAmount);
    event Funded(address indexed from, uint256 amount);

    error NotOperator(address caller);
    error CoolingDown(address to, uint256 nextDripAt);
    error FaucetEmpty(uint256 ethBalance, uint256 tokenBalance);
    error EtherTransferFailed(address to);

    constructor(address operator_, IERC20 token_, uint256 ethAmount_, uint256 tokenAmount_) {
        operator = operator_;
        token = token_;
        ethAmount = ethAmount_;
        tokenAmount = tokenAmount_;
        emit AmountsChanged(ethAmount_, tokenAmount_);
    }

    receive() external payable {
        emit Funded(msg.sender, msg.value);
    }

    /// @notice The first timestamp at which `to` may drip again; 0 when it never dripped.
    function nextDripAt(address to) public view returns (uint256) {
        uint256 last = lastDripAt[to];
        return last == 0 ? 0 : last + COOLDOWN;
    }

    /// @notice Seconds until `to` may drip again; 0 when it may drip now.
    function retryIn(address to) external view returns (uint256) {
        uint256 next = nextDripAt(to);
        return block.timestamp >= next ? 0 : next - block.timestamp;
    }

    function dripTo(address payable to) external {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        uint256 next = nextDripAt(to);
        if (block.timestamp < next) revert CoolingDown(to, next);
        uint256 tokenBalance = token.balanceOf(address(this));
        if (address(this).balance < ethAmount || tokenBalance < tokenAmount) {
            revert FaucetEmpty(address(this).balance, tokenBalance);
        }
        lastDripAt[to] = block.timestamp;
        emit Drip(to, ethAmount, tokenAmount);
        token.safeTransfer(to, tokenAmount);
        (bool sent,) = to.call{value: ethAmount}("");
        if (!sent) revert EtherTransferFailed(to);
    }

    function setAmounts(uint256 ethAmount_, uint256 tokenAmount_) external {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        ethAmount = ethAmount_;
        tokenAmount = tokenAmount_;
        emit AmountsChanged(ethAmount_, tokenAmount_);
    }
}
