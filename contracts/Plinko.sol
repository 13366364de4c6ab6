// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeGame} from "./ArcadeGame.sol";

/// @notice Plinko with eight rows of pegs: the ball goes left or right at each row (one bit of the
/// draw each, `path`), and lands in the bucket numbered by how many times it went right, 0 to 8.
/// What each bucket returns, stake included, in hundredths, by the risk the player picks:
///
/// | risk | buckets 0 to 8 | returns on average |
/// |---|---|---|
/// | 0 low | 560 210 110 100 50 100 110 210 560 | 98.98 % |
/// | 1 high | 2900 400 150 30 20 30 150 400 2900 | 99.06 % |
///
/// The path comes from ArcadeRandom (the hash of the block that took the bet): NOT SECURE FOR
/// REAL MONEY, since the block producer chooses it.
contract Plinko is ArcadeGame {
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 1 ether;
    uint8 public constant ROWS = 8;

    event PlinkoPlaced(uint256 indexed betId, address indexed player, uint8 risk, uint256 stake);
    event PlinkoDropped(uint256 indexed betId, address indexed player, uint8 risk, uint8 path, uint8 bucket, uint256 multiplierX100, uint256 payout);
    event PlinkoRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    error UnknownRisk(uint8 risk);

    constructor(ArcadeBank bank_) ArcadeGame(bank_) {}

    /// @notice What bucket `bucket` returns at `risk`, in hundredths of the stake.
    function multiplierX100(uint8 risk, uint8 bucket) public pure returns (uint256) {
        uint16[9] memory low = [560, 210, 110, 100, 50, 100, 110, 210, 560];
        uint16[9] memory high = [2_900, 400, 150, 30, 20, 30, 150, 400, 2_900];
        if (risk == 0) return low[bucket];
        if (risk == 1) return high[bucket];
        revert UnknownRisk(risk);
    }

    /// @notice The bucket a path lands in: its bits set, one a row.
    function bucketOf(uint8 path) public pure returns (uint8 bucket) {
        for (uint8 row = 0; row < ROWS; row++) bucket += (path >> row) & 1;
    }

    function drop(uint8 risk, uint256 stake) external returns (uint256 betId) {
        // The edge buckets return the most at either risk.
        betId = _place(stake, MIN_STAKE, MAX_STAKE, risk, (stake * multiplierX100(risk, 0)) / 100);
        emit PlinkoPlaced(betId, msg.sender, risk, stake);
    }

    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal override {
        uint8 risk = uint8(bet.choice);
        uint8 path = uint8(seed);
        uint8 bucket = bucketOf(path);
        uint256 multiplier = multiplierX100(risk, bucket);
        uint256 payout = (uint256(bet.stake) * multiplier) / 100;
        _pay(bet, payout);
        emit PlinkoDropped(betId, bet.player, risk, path, bucket, multiplier, payout);
    }

    function _refunded(uint256 betId, Bet memory bet) internal override {
        emit PlinkoRefunded(betId, bet.player, bet.stake);
    }
}
