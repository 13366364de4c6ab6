// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeGame} from "./ArcadeGame.sol";

/// @notice Roll under: the player picks a number from 2 to 99 and wins when a roll of 1 to 100
/// comes in under it, a chance of (rollUnder - 1) %. A win pays the stake times 99 / (rollUnder - 1)
/// (the fair odds less a 1 % edge): 1.98 times at 51, 99 times at 2.
///
/// The roll comes from ArcadeRandom (the hash of the block that took the bet): NOT SECURE FOR
/// REAL MONEY, since the block producer chooses it.
contract Dice is ArcadeGame {
    uint256 public constant EDGE_BPS = 100;
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 1 ether;
    uint8 public constant MIN_ROLL_UNDER = 2;
    uint8 public constant MAX_ROLL_UNDER = 99;

    event DicePlaced(uint256 indexed betId, address indexed player, uint8 rollUnder, uint256 stake, uint256 payoutIfWon);
    event DiceRolled(uint256 indexed betId, address indexed player, uint8 rollUnder, uint8 roll, uint256 payout);
    event DiceRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    error RollUnderOutOfRange(uint8 rollUnder, uint8 min, uint8 max);

    constructor(ArcadeBank bank_) ArcadeGame(bank_) {}

    /// @notice What a winning bet of `stake` under `rollUnder` pays.
    function payoutFor(uint256 stake, uint8 rollUnder) public pure returns (uint256) {
        if (rollUnder < MIN_ROLL_UNDER || rollUnder > MAX_ROLL_UNDER) revert RollUnderOutOfRange(rollUnder, MIN_ROLL_UNDER, MAX_ROLL_UNDER);
        return (stake * (10_000 - EDGE_BPS)) / (uint256(rollUnder - 1) * 100);
    }

    /// @notice The roll, 1 to 100, that a seed gives.
    function rollOf(uint256 seed) public pure returns (uint8) {
        return uint8(seed % 100) + 1;
    }

    function place(uint8 rollUnder, uint256 stake) external returns (uint256 betId) {
        uint256 payout = payoutFor(stake, rollUnder);
        betId = _place(stake, MIN_STAKE, MAX_STAKE, rollUnder, payout);
        emit DicePlaced(betId, msg.sender, rollUnder, stake, payout);
    }

    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal override {
        uint8 rollUnder = uint8(bet.choice);
        uint8 roll = rollOf(seed);
        uint256 payout = roll < rollUnder ? bet.reserve : 0;
        _pay(bet, payout);
        emit DiceRolled(betId, bet.player, rollUnder, roll, payout);
    }

    function _refunded(uint256 betId, Bet memory bet) internal override {
        emit DiceRefunded(betId, bet.player, bet.stake);
    }
}
