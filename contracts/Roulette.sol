// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeGame} from "./ArcadeGame.sol";

/// @notice European roulette, one bet a spin: the wheel has 37 pockets, 0 to 36. What a winning
/// bet returns, stake included:
///
/// | kind | number | wins on | returns |
/// |---|---|---|---|
/// | 0 straight | 0 to 36 | that pocket | 36x |
/// | 1 red, 2 black | 0 | the 18 red or black pockets | 2x |
/// | 3 odd, 4 even | 0 | odd or even pockets, 0 excluded | 2x |
/// | 5 low, 6 high | 0 | 1 to 18, or 19 to 36 | 2x |
/// | 7 dozen | 1 to 3 | 1-12, 13-24 or 25-36 | 3x |
/// | 8 column | 1 to 3 | the pockets n with (n - 1) % 3 + 1 equal to the column | 3x |
///
/// The zero makes the edge 1/37 (2.7 %) on every bet. The pocket comes from ArcadeRandom (the
/// hash of the block that took the bet): NOT SECURE FOR REAL MONEY, since the block producer
/// chooses it.
contract Roulette is ArcadeGame {
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 1 ether;
    uint8 public constant POCKETS = 37;
    /// Bit n is set when pocket n is red.
    uint256 public constant RED_POCKETS = 0x154aad52aa;

    uint8 constant STRAIGHT = 0;
    uint8 constant RED = 1;
    uint8 constant BLACK = 2;
    uint8 constant ODD = 3;
    uint8 constant EVEN = 4;
    uint8 constant LOW = 5;
    uint8 constant HIGH = 6;
    uint8 constant DOZEN = 7;
    uint8 constant COLUMN = 8;

    event RoulettePlaced(uint256 indexed betId, address indexed player, uint8 kind, uint8 number, uint256 stake, uint256 payoutIfWon);
    event RouletteSpun(uint256 indexed betId, address indexed player, uint8 kind, uint8 number, uint8 pocket, uint256 payout);
    event RouletteRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    error InvalidBet(uint8 kind, uint8 number);

    constructor(ArcadeBank bank_) ArcadeGame(bank_) {}

    /// @notice What a winning bet of `stake` returns, stake included; reverts on a bet that does not exist.
    function payoutFor(uint256 stake, uint8 kind, uint8 number) public pure returns (uint256) {
        if (kind == STRAIGHT) {
            if (number >= POCKETS) revert InvalidBet(kind, number);
            return stake * 36;
        }
        if (kind <= HIGH) {
            if (number != 0) revert InvalidBet(kind, number);
            return stake * 2;
        }
        if (kind <= COLUMN) {
            if (number < 1 || number > 3) revert InvalidBet(kind, number);
            return stake * 3;
        }
        revert InvalidBet(kind, number);
    }

    /// @notice Whether a bet wins when the ball lands in `pocket`.
    function wins(uint8 kind, uint8 number, uint8 pocket) public pure returns (bool) {
        if (kind == STRAIGHT) return pocket == number;
        if (pocket == 0) return false;
        if (kind == RED) return (RED_POCKETS >> pocket) & 1 == 1;
        if (kind == BLACK) return (RED_POCKETS >> pocket) & 1 == 0;
        if (kind == ODD) return pocket % 2 == 1;
        if (kind == EVEN) return pocket % 2 == 0;
        if (kind == LOW) return pocket <= 18;
        if (kind == HIGH) return pocket >= 19;
        if (kind == DOZEN) return (pocket - 1) / 12 + 1 == number;
        return (pocket - 1) % 3 + 1 == number;
    }

    function place(uint8 kind, uint8 number, uint256 stake) external returns (uint256 betId) {
        uint256 payout = payoutFor(stake, kind, number);
        betId = _place(stake, MIN_STAKE, MAX_STAKE, (uint256(kind) << 8) | number, payout);
        emit RoulettePlaced(betId, msg.sender, kind, number, stake, payout);
    }

    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal override {
        uint8 kind = uint8(bet.choice >> 8);
        uint8 number = uint8(bet.choice);
        uint8 pocket = uint8(seed % POCKETS);
        uint256 payout = wins(kind, number, pocket) ? bet.reserve : 0;
        _pay(bet, payout);
        emit RouletteSpun(betId, bet.player, kind, number, pocket, payout);
    }

    function _refunded(uint256 betId, Bet memory bet) internal override {
        emit RouletteRefunded(betId, bet.player, bet.stake);
    }
}
