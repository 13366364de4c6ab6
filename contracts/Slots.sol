// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeGame} from "./ArcadeGame.sol";

/// @notice A three-reel slot machine. Each reel has 32 stops: 10 cherries (symbol 0), 8 lemons
/// (1), 6 oranges (2), 4 plums (3), 3 bells (4) and 1 seven (5), each stop equally likely and the
/// reels independent. What a spin returns, stake included:
///
/// | line | returns | chance |
/// |---|---|---|
/// | three sevens | 250x | 1 in 32,768 |
/// | three bells | 60x | 27 in 32,768 |
/// | three plums | 30x | 64 in 32,768 |
/// | three oranges | 18x | 216 in 32,768 |
/// | three lemons | 9x | 512 in 32,768 |
/// | three cherries | 6x | 1,000 in 32,768 |
/// | exactly two cherries | 2x | 6,600 in 32,768 |
///
/// It returns 96.09 % of stakes on average (an edge of 3.91 %). The stops come from ArcadeRandom
/// (the hash of the block that took the bet): NOT SECURE FOR REAL MONEY, since the block producer
/// chooses it.
contract Slots is ArcadeGame {
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 0.1 ether;
    uint256 public constant STOPS = 32;
    /// The largest return, in hundredths of the stake: three sevens.
    uint256 public constant MAX_MULTIPLIER_X100 = 25_000;

    event SlotsPlaced(uint256 indexed betId, address indexed player, uint256 stake);
    event SlotsSpun(uint256 indexed betId, address indexed player, uint8[3] reels, uint256 multiplierX100, uint256 payout);
    event SlotsRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    constructor(ArcadeBank bank_) ArcadeGame(bank_) {}

    /// @notice The symbol at a stop of a reel (0 cherry, 1 lemon, 2 orange, 3 plum, 4 bell, 5 seven).
    function symbolAt(uint256 stop) public pure returns (uint8) {
        if (stop < 10) return 0;
        if (stop < 18) return 1;
        if (stop < 24) return 2;
        if (stop < 28) return 3;
        if (stop < 31) return 4;
        return 5;
    }

    /// @notice The symbols a seed stops the reels on: reel i from byte i of the seed.
    function reelsOf(uint256 seed) public pure returns (uint8[3] memory reels) {
        for (uint256 i = 0; i < 3; i++) reels[i] = symbolAt(((seed >> (8 * i)) & 0xff) % STOPS);
    }

    /// @notice What a line returns, in hundredths of the stake (0 for a losing line).
    function multiplierX100(uint8[3] memory reels) public pure returns (uint256) {
        if (reels[0] == reels[1] && reels[1] == reels[2]) {
            uint16[6] memory three = [600, 900, 1_800, 3_000, 6_000, 25_000];
            return three[reels[0]];
        }
        uint256 cherries = (reels[0] == 0 ? 1 : 0) + (reels[1] == 0 ? 1 : 0) + (reels[2] == 0 ? 1 : 0);
        return cherries == 2 ? 200 : 0;
    }

    function spin(uint256 stake) external returns (uint256 betId) {
        betId = _place(stake, MIN_STAKE, MAX_STAKE, 0, (stake * MAX_MULTIPLIER_X100) / 100);
        emit SlotsPlaced(betId, msg.sender, stake);
    }

    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal override {
        uint8[3] memory reels = reelsOf(seed);
        uint256 multiplier = multiplierX100(reels);
        uint256 payout = (uint256(bet.stake) * multiplier) / 100;
        _pay(bet, payout);
        emit SlotsSpun(betId, bet.player, reels, multiplier, payout);
    }

    function _refunded(uint256 betId, Bet memory bet) internal override {
        emit SlotsRefunded(betId, bet.player, bet.stake);
    }
}
