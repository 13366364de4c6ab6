// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The price of one ether in US dollars, in the shape of Chainlink's AggregatorV3Interface
/// (decimals, description, version, getRoundData, latestRoundData), so wallets and protocols read
/// it as they read any feed. One updater (its owner) writes each round; nothing here is aggregated
/// from several sources, and readers decide for themselves how old an answer may be (updatedAt).
contract EthUsdFeed {
    uint8 public constant decimals = 8;
    string public constant description = "ETH / USD";
    uint256 public constant version = 1;

    address public immutable owner;

    struct Round {
        int256 answer;
        uint64 startedAt;
        uint64 updatedAt;
    }

    /// The last round written; rounds are numbered from 1.
    uint80 public latestRound;
    mapping(uint80 => Round) private rounds;

    /// Chainlink's events, so indexers that know feeds read this one too.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    error NotOwner(address caller);
    error NotPositive(int256 answer);
    error NoDataPresent(uint80 roundId);

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice Writes a new round: `answer` dollars per ether, with `decimals` decimals.
    function update(int256 answer) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (answer <= 0) revert NotPositive(answer);
        uint80 roundId = latestRound + 1;
        latestRound = roundId;
        rounds[roundId] = Round(answer, uint64(block.timestamp), uint64(block.timestamp));
        emit NewRound(roundId, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, roundId, block.timestamp);
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory round = rounds[roundId];
        if (round.updatedAt == 0) revert NoDataPresent(roundId);
        return (roundId, round.answer, round.startedAt, round.updatedAt, roundId);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }
}
