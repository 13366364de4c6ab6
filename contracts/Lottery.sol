// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ArcadeBank} from "./ArcadeBank.sol";
import {ArcadeRandom} from "./ArcadeGame.sol";

/// @notice A lottery in rounds, paying through the ArcadeBank. Tickets cost 0.01 ether from the
/// buyer's bank balance. The first ticket of a round sets its last block, ROUND_BLOCKS later;
/// tickets sell until that block, and from the next one anyone may `draw`: one ticket wins 98 % of
/// the round's pot (a 2 % edge), the next ticket bought opens a new round. A round holds at most
/// MAX_ENTRIES purchases, so drawing or refunding it stays cheap.
///
/// The winning ticket comes from ArcadeRandom with the hash of the round's last block, which no
/// buyer can know when buying. If nobody draws within 256 blocks of it, every purchase is refunded.
/// NOT SECURE FOR REAL MONEY: the block producer chooses that hash.
contract Lottery {
    struct Entry {
        address player;
        uint32 tickets;
    }

    uint256 public constant TICKET_PRICE = 0.01 ether;
    uint256 public constant ROUND_BLOCKS = 10;
    uint256 public constant PRIZE_BPS = 9_800;
    uint256 public constant MAX_ENTRIES = 64;
    uint32 public constant MAX_TICKETS = 100;

    ArcadeBank public immutable bank;
    /// The round selling tickets, or waiting for its draw.
    uint256 public round = 1;
    /// The round's last block, 0 until its first ticket.
    uint256 public endsAt;
    uint256 public ticketsSold;
    mapping(uint256 => Entry[]) internal entriesOf;

    event TicketsBought(uint256 indexed round, address indexed player, uint32 tickets, uint256 cost, uint256 endsAt);
    event LotteryDrawn(uint256 indexed round, address indexed winner, uint256 winningTicket, uint256 tickets, uint256 pot, uint256 prize);
    event LotteryRefunded(uint256 indexed round, uint256 entries, uint256 pot);

    error TicketsOutOfRange(uint32 tickets, uint32 max);
    error RoundFull(uint256 round, uint256 entries);
    error RoundOver(uint256 round, uint256 endedAt);
    error TooEarly(uint256 round, uint256 drawFrom);

    constructor(ArcadeBank bank_) {
        bank = bank_;
    }

    function entries(uint256 round_) external view returns (Entry[] memory) {
        return entriesOf[round_];
    }

    function buy(uint32 tickets) external {
        if (tickets < 1 || tickets > MAX_TICKETS) revert TicketsOutOfRange(tickets, MAX_TICKETS);
        if (endsAt == 0) endsAt = block.number + ROUND_BLOCKS;
        else if (block.number > endsAt) revert RoundOver(round, endsAt);
        Entry[] storage list = entriesOf[round];
        if (list.length >= MAX_ENTRIES) revert RoundFull(round, list.length);
        uint256 cost = uint256(tickets) * TICKET_PRICE;
        // The whole ticket price is held back: the pot is paid from it.
        bank.stake(msg.sender, cost, cost);
        list.push(Entry({player: msg.sender, tickets: tickets}));
        ticketsSold += tickets;
        emit TicketsBought(round, msg.sender, tickets, cost, endsAt);
    }

    /// @notice What the winner of `tickets` tickets is paid.
    function prizeFor(uint256 tickets) public pure returns (uint256) {
        return (tickets * TICKET_PRICE * PRIZE_BPS) / 10_000;
    }

    /// @notice Draws the round from the block after its last one; anyone may call it.
    function draw() external {
        uint256 closing = endsAt;
        if (closing == 0 || block.number <= closing) revert TooEarly(round, closing == 0 ? 0 : closing + 1);
        uint256 drawn = round;
        uint256 sold = ticketsSold;
        Entry[] storage list = entriesOf[drawn];
        round = drawn + 1;
        endsAt = 0;
        ticketsSold = 0;
        uint256 pot = sold * TICKET_PRICE;
        (bool available, uint256 seed) = ArcadeRandom.draw(closing, drawn);
        if (!available) {
            for (uint256 i = 0; i < list.length; i++) {
                uint256 cost = uint256(list[i].tickets) * TICKET_PRICE;
                bank.settle(list[i].player, cost, cost);
            }
            emit LotteryRefunded(drawn, list.length, pot);
            return;
        }
        uint256 winning = seed % sold;
        address winner;
        uint256 counted;
        for (uint256 i = 0; i < list.length; i++) {
            counted += list[i].tickets;
            if (winning < counted) {
                winner = list[i].player;
                break;
            }
        }
        uint256 prize = prizeFor(sold);
        bank.settle(winner, pot, prize);
        emit LotteryDrawn(drawn, winner, winning, sold, pot, prize);
    }
}
