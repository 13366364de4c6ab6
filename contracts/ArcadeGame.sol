// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";

/// @notice The arcade's one source of chance: the hash of a block that is already mined, mixed
/// with an id so that two draws from the same block differ.
///
/// A draw uses the hash of the block that took the bet (or, for the lottery, closed the round),
/// which nobody signing the bet can know, and may be made from the next block on. The EVM keeps
/// only the last 256 block hashes: after that the draw is gone and the games refund.
///
/// NOT SECURE FOR REAL MONEY: whoever produces the block (the sequencer, or anvil on the dev
/// chain) chooses its contents and so its hash. These are demo games for a local chain.
library ArcadeRandom {
    /// @return available false once the block's hash is no longer known (256 blocks later)
    /// @return seed 256 random bits for `id`, zero when not available
    function draw(uint256 blockNumber, uint256 id) internal view returns (bool available, uint256 seed) {
        bytes32 hash = blockhash(blockNumber);
        if (hash == bytes32(0)) return (false, 0);
        return (true, uint256(keccak256(abi.encode(hash, id))));
    }
}

/// @notice What the arcade's single-bet games share: a bet is staked through the ArcadeBank when
/// placed (the bank sets aside the most it can pay), and anyone settles it from the next block
/// with ArcadeRandom; a bet not settled within 256 blocks is refunded its stake.
///
/// A game packs the player's choice into `choice`, works out the payout in `_resolve` and pays it
/// with `_pay`, emitting its own events after the bank's.
abstract contract ArcadeGame {
    struct Bet {
        address player;
        uint96 stake;
        uint64 placedAt;
        bool open;
        /// What the player chose, packed by the game.
        uint256 choice;
        /// The most the bet can pay, set aside by the bank until it is settled.
        uint256 reserve;
    }

    ArcadeBank public immutable bank;
    uint256 public betCount;
    mapping(uint256 => Bet) public bets;

    error StakeOutOfRange(uint256 stake, uint256 min, uint256 max);
    error UnknownBet(uint256 betId);
    error AlreadySettled(uint256 betId);
    error TooEarly(uint256 betId, uint256 settleFrom);

    constructor(ArcadeBank bank_) {
        bank = bank_;
    }

    /// @notice Settles a bet from the block after it was placed; anyone may call it.
    function settle(uint256 betId) external {
        Bet storage bet = bets[betId];
        if (bet.player == address(0)) revert UnknownBet(betId);
        if (!bet.open) revert AlreadySettled(betId);
        if (block.number <= bet.placedAt) revert TooEarly(betId, bet.placedAt + 1);
        bet.open = false;
        Bet memory closed = bet;
        (bool available, uint256 seed) = ArcadeRandom.draw(closed.placedAt, betId);
        if (!available) {
            _pay(closed, closed.stake);
            _refunded(betId, closed);
            return;
        }
        _resolve(betId, closed, seed);
    }

    /// Takes `stake` from the caller's bank balance and records the bet.
    function _place(uint256 stake, uint256 minStake, uint256 maxStake, uint256 choice, uint256 reserve) internal returns (uint256 betId) {
        if (stake < minStake || stake > maxStake) revert StakeOutOfRange(stake, minStake, maxStake);
        bank.stake(msg.sender, stake, reserve);
        betId = ++betCount;
        bets[betId] = Bet({player: msg.sender, stake: uint96(stake), placedAt: uint64(block.number), open: true, choice: choice, reserve: reserve});
    }

    /// Credits `payout` (at most the reserve) to the player's bank balance and frees the reserve.
    function _pay(Bet memory bet, uint256 payout) internal {
        bank.settle(bet.player, bet.reserve, payout);
    }

    /// Works out what the bet won from `seed`, pays it with `_pay` and says so.
    function _resolve(uint256 betId, Bet memory bet, uint256 seed) internal virtual;

    /// Says that the bet was refunded (its stake is already back in the player's balance).
    function _refunded(uint256 betId, Bet memory bet) internal virtual;
}
