// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeGame} from "./ArcadeGame.sol";

/// @notice Crash with an automatic cash-out: the player names a multiplier from 1.01x to 100x (in
/// hundredths, 101 to 10000) before the round; the round's crash point is drawn when the bet is
/// settled, and the bet pays the stake times the multiplier when the crash point reached it.
///
/// The crash point is 0.99 / (1 - u) for u uniform in [0, 1) (in hundredths, rounded down, at most
/// 1,000,000), so it reaches a multiplier m with a chance of 0.99 / m: a 1 % edge at every m, and
/// 1 % of rounds crash at once (below 1.00x).
///
/// The draw comes from ArcadeRandom (the hash of the block that took the bet): NOT SECURE FOR REAL
/// MONEY, since the block producer chooses it.
contract Crash is ArcadeGame {
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 1 ether;
    uint32 public constant MIN_CASH_OUT_X100 = 101;
    uint32 public constant MAX_CASH_OUT_X100 = 10_000;
    uint256 public constant MAX_CRASH_X100 = 1_000_000;

    event CrashPlaced(uint256 indexed betId, address indexed player, uint32 cashOutX100, uint256 stake, uint256 payoutIfWon);
    event Crashed(uint256 indexed betId, address indexed player, uint32 cashOutX100, uint256 crashX100, uint256 payout);
    event CrashRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    error CashOutOutOfRange(uint32 cashOutX100, uint32 min, uint32 max);

    constructor(ArcadeBank bank_) ArcadeGame(bank_) {}

    /// @notice What a bet of `stake` cashed out at `cashOutX100` pays when the round reaches it.
    function payoutFor(uint256 stake, uint32 cashOutX100) public pure returns (uint256) {
        if (cashOutX100 < MIN_CASH_OUT_X100 || cashOutX100 > MAX_CASH_OUT_X100) {
            revert CashOutOutOfRange(cashOutX100, MIN_CASH_OUT_X100, MAX_CASH_OUT_X100);
        }
        return (stake * cashOutX100) / 100;
    }

    /// @notice The crash point, in hundredths, that a seed gives: from its low 32 bits.
    function crashPointOf(uint256 seed) public pure returns (uint256) {
        uint256 u = seed & 0xffffffff;
        uint256 point = (99 << 32) / ((1 << 32) - u);
        return point > MAX_CRASH_X100 ? MAX_CRASH_X100 : point;
    }

    function place(uint32 cashOutX100, uint256 stake) external returns (uint256 betId) {
        uint256 payout = payoutFor(stake, cashOutX100);
        betId = _place(stake, MIN_STAKE, MAX_STAKE, cashOutX100, payout);
        emit CrashPlaced(betId, msg.sender, cashOutX100, stake, payout);
    }

    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal override {
        uint32 cashOutX100 = uint32(bet.choice);
        uint256 crashX100 = crashPointOf(seed);
        uint256 payout = crashX100 >= cashOutX100 ? bet.reserve : 0;
        _pay(bet, payout);
        emit Crashed(betId, bet.player, cashOutX100, crashX100, payout);
    }

    function _refunded(uint256 betId, Bet memory bet) internal override {
        emit CrashRefunded(betId, bet.player, bet.stake);
    }
}
