// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeGame} from "./ArcadeGame.sol";

/// @notice A coin flip settled on chain, paying through the ArcadeBank.
///
/// A player bets part of their bank balance on heads or tails with `place`. The coin is the hash
/// of the block that included the bet, which nobody signing the bet can know; anyone may call
/// `settle` from the next block on, and a winner's balance is credited twice the stake less the
/// house edge. If nobody settles within 256 blocks the hash is gone and the stake is refunded.
///
/// NOT SECURE FOR REAL MONEY: whoever produces the block (the sequencer, or anvil on the dev
/// chain) chooses its contents and so its hash. This is a demo game for a local chain.
contract CoinFlip is ArcadeGame {
    uint256 public constant EDGE_BPS = 100;
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 10 ether;

    event FlipPlaced(uint256 indexed betId, address indexed player, bool heads, uint256 stake, uint256 placedAt);
    event FlipSettled(uint256 indexed betId, address indexed player, bool heads, bool landedHeads, uint256 payout);
    event FlipRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    constructor(ArcadeBank bank_) ArcadeGame(bank_) {}

    /// @notice What a winning bet of `stake` pays: twice the stake less the house edge.
    function payoutFor(uint256 stake) public pure returns (uint256) {
        return (stake * 2 * (10_000 - EDGE_BPS)) / 10_000;
    }

    function place(bool heads, uint256 stake) external returns (uint256 betId) {
        betId = _place(stake, MIN_STAKE, MAX_STAKE, heads ? 1 : 0, payoutFor(stake));
        emit FlipPlaced(betId, msg.sender, heads, stake, block.number);
    }

    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal override {
        bool heads = bet.choice == 1;
        bool landedHeads = seed & 1 == 1;
        uint256 payout = landedHeads == heads ? bet.reserve : 0;
        _pay(bet, payout);
        emit FlipSettled(betId, bet.player, heads, landedHeads, payout);
    }

    function _refunded(uint256 betId, Bet memory bet) internal override {
        emit FlipRefunded(betId, bet.player, bet.stake);
    }
}
