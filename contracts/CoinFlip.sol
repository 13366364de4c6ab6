// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";

/// @notice A coin flip settled on chain, paying through the ArcadeBank.
///
/// A player bets part of their bank balance on heads or tails with `place`. The coin is the hash
/// of the block that included the bet, which nobody signing the bet can know; anyone may call
/// `settle` from the next block on, and a winner's balance is credited twice the stake less the
/// house edge. If nobody settles within 256 blocks the hash is gone and the stake is refunded.
///
/// NOT SECURE FOR REAL MONEY: whoever produces the block (the sequencer, or anvil on the dev
/// chain) chooses its contents and so its hash. This is a demo game for a local chain.
contract CoinFlip {
    struct Bet {
        address player;
        uint96 stake;
        uint64 placedAt;
        bool heads;
        bool open;
    }

    uint256 public constant EDGE_BPS = 100;
    uint256 public constant MIN_STAKE = 0.001 ether;
    uint256 public constant MAX_STAKE = 10 ether;

    ArcadeBank public immutable bank;
    uint256 public betCount;
    mapping(uint256 => Bet) public bets;

    event FlipPlaced(uint256 indexed betId, address indexed player, bool heads, uint256 stake, uint256 placedAt);
    event FlipSettled(uint256 indexed betId, address indexed player, bool heads, bool landedHeads, uint256 payout);
    event FlipRefunded(uint256 indexed betId, address indexed player, uint256 stake);

    error StakeOutOfRange(uint256 stake, uint256 min, uint256 max);
    error UnknownBet(uint256 betId);
    error AlreadySettled(uint256 betId);
    error TooEarly(uint256 betId, uint256 settleFrom);

    constructor(ArcadeBank bank_) {
        bank = bank_;
    }

    /// @notice What a winning bet of `stake` pays: twice the stake less the house edge.
    function payoutFor(uint256 stake) public pure returns (uint256) {
        return (stake * 2 * (10_000 - EDGE_BPS)) / 10_000;
    }

    function place(bool heads, uint256 stake) external returns (uint256 betId) {
        if (stake < MIN_STAKE || stake > MAX_STAKE) revert StakeOutOfRange(stake, MIN_STAKE, MAX_STAKE);
        bank.stake(msg.sender, stake, payoutFor(stake));
        betId = ++betCount;
        bets[betId] = Bet({player: msg.sender, stake: uint96(stake), placedAt: uint64(block.number), heads: heads, open: true});
        emit FlipPlaced(betId, msg.sender, heads, stake, block.number);
    }

    function settle(uint256 betId) external {
        Bet storage bet = bets[betId];
        if (bet.player == address(0)) revert UnknownBet(betId);
        if (!bet.open) revert AlreadySettled(betId);
        if (block.number <= bet.placedAt) revert TooEarly(betId, bet.placedAt + 1);
        bet.open = false;
        uint256 reserve = payoutFor(bet.stake);
        bytes32 coin = blockhash(bet.placedAt);
        if (coin == bytes32(0)) {
            bank.settle(bet.player, reserve, bet.stake);
            emit FlipRefunded(betId, bet.player, bet.stake);
            return;
        }
        bool landedHeads = uint256(keccak256(abi.encode(coin, betId))) & 1 == 1;
        uint256 payout = landedHeads == bet.heads ? reserve : 0;
        bank.settle(bet.player, reserve, payout);
        emit FlipSettled(betId, bet.player, bet.heads, landedHeads, payout);
    }
}
