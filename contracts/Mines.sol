// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeGame} from "./ArcadeGame.sol";

/// @notice Mines on a 5 x 5 board, in one go: the player picks how many mines the board hides (1
/// to 24) and which tiles to open (a bit mask of tiles 0 to 24, at least one, at most the safe
/// ones). The mines are laid when the bet is settled; the bet wins when no picked tile hides one.
///
/// With m mines and k tiles picked, the chance of a win is C(25 - m, k) / C(25, k), and a win
/// returns the stake times 0.99 x C(25, k) / C(25 - m, k), stake included: the fair odds less a
/// 1 % edge. One tile with one mine returns 1.03125x, three tiles with five mines 1.9974x. A bet
/// whose win the house cannot cover is refused by the bank.
///
/// The mines come from ArcadeRandom (the hash of the block that took the bet): NOT SECURE FOR
/// REAL MONEY, since the block producer chooses it.
contract Mines is ArcadeGame {
    uint256 public constant EDGE_BPS = 100;
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 1 ether;
    uint8 public constant TILES = 25;

    event MinesPlaced(uint256 indexed betId, address indexed player, uint8 mines, uint32 picks, uint256 stake, uint256 payoutIfWon);
    event MinesRevealed(uint256 indexed betId, address indexed player, uint8 mines, uint32 picks, uint32 minesMask, uint256 payout);
    event MinesRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    error InvalidBoard(uint8 mines, uint32 picks);

    constructor(ArcadeBank bank_) ArcadeGame(bank_) {}

    /// @notice What a winning bet returns, stake included; reverts on a board that cannot be played.
    function payoutFor(uint256 stake, uint8 mines, uint32 picks) public pure returns (uint256) {
        uint256 picked = countBits(picks);
        if (mines < 1 || mines >= TILES || picks >> TILES != 0 || picked < 1 || picked > TILES - mines) revert InvalidBoard(mines, picks);
        return (stake * (10_000 - EDGE_BPS) * choose(TILES, picked)) / (10_000 * choose(TILES - mines, picked));
    }

    /// @notice The tiles a seed lays `mines` mines on, as a bit mask (a shuffle of the 25 tiles, its first `mines` taken).
    function minesOf(uint256 seed, uint8 mines) public pure returns (uint32 mask) {
        uint8[25] memory tiles;
        for (uint8 i = 0; i < TILES; i++) tiles[i] = i;
        for (uint8 i = 0; i < mines; i++) {
            uint256 left = TILES - i;
            uint256 j = i + (seed % left);
            seed /= left;
            (tiles[i], tiles[j]) = (tiles[j], tiles[i]);
            mask |= uint32(1) << tiles[i];
        }
    }

    function countBits(uint32 mask) public pure returns (uint256 count) {
        for (; mask != 0; mask &= mask - 1) count++;
    }

    function choose(uint256 n, uint256 k) internal pure returns (uint256 result) {
        result = 1;
        for (uint256 i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
    }

    function place(uint8 mines, uint32 picks, uint256 stake) external returns (uint256 betId) {
        uint256 payout = payoutFor(stake, mines, picks);
        betId = _place(stake, MIN_STAKE, MAX_STAKE, (uint256(mines) << 32) | picks, payout);
        emit MinesPlaced(betId, msg.sender, mines, picks, stake, payout);
    }

    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal override {
        uint8 mines = uint8(bet.choice >> 32);
        uint32 picks = uint32(bet.choice);
        uint32 minesMask = minesOf(seed, mines);
        uint256 payout = minesMask & picks == 0 ? bet.reserve : 0;
        _pay(bet, payout);
        emit MinesRevealed(betId, bet.player, mines, picks, minesMask, payout);
    }

    function _refunded(uint256 betId, Bet memory bet) internal override {
        emit MinesRefunded(betId, bet.player, bet.stake);
    }
}
