// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The arcade's ether: each player's balance, and the house's bankroll that pays winners.
/// The owner enables games. A game takes a player's stake into the house and reserves the most the
/// bet can pay out of the free bankroll, so every open bet can always be paid; settling frees the
/// reserve and credits the payout. Players deposit and withdraw their own balance at any time.
contract ArcadeBank {
    address public immutable owner;
    mapping(address => bool) public isGame;
    mapping(address => uint256) public balanceOf;
    /// Bankroll free to back new bets.
    uint256 public house;
    /// Bankroll reserved for the open bets of each game.
    mapping(address => uint256) public reservedBy;

    event Deposited(address indexed player, uint256 amount);
    event Withdrawn(address indexed player, uint256 amount);
    event HouseFunded(address indexed from, uint256 amount);
    event GameEnabled(address indexed game, bool enabled);
    event Staked(address indexed game, address indexed player, uint256 amount, uint256 reserved);
    event Settled(address indexed game, address indexed player, uint256 reserved, uint256 payout);

    error NotOwner(address caller);
    error NotGame(address caller);
    error InsufficientBalance(address player, uint256 balance, uint256 wanted);
    error HouseTooSmall(uint256 free, uint256 wanted);
    error PayoutOverReserve(uint256 payout, uint256 reserved);
    error EtherTransferFailed(address to);

    constructor(address owner_) {
        owner = owner_;
    }

    /// Plain ether sent to the bank is a deposit by the sender.
    receive() external payable {
        deposit();
    }

    function deposit() public payable {
        balanceOf[msg.sender] += msg.value;
        emit Deposited(msg.sender, msg.value);
    }

    function withdraw(uint256 amount) external {
        uint256 balance = balanceOf[msg.sender];
        if (balance < amount) revert InsufficientBalance(msg.sender, balance, amount);
        balanceOf[msg.sender] = balance - amount;
        emit Withdrawn(msg.sender, amount);
        (bool sent,) = msg.sender.call{value: amount}("");
        if (!sent) revert EtherTransferFailed(msg.sender);
    }

    function fundHouse() external payable {
        house += msg.value;
        emit HouseFunded(msg.sender, msg.value);
    }

    function setGame(address game, bool enabled) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        isGame[game] = enabled;
        emit GameEnabled(game, enabled);
    }

    /// @notice Called by a game when `player` bets `amount`: the stake joins the house and
    /// `reserve` (the most the bet can pay) is set aside for it.
    function stake(address player, uint256 amount, uint256 reserve) external {
        if (!isGame[msg.sender]) revert NotGame(msg.sender);
        uint256 balance = balanceOf[player];
        if (balance < amount) revert InsufficientBalance(player, balance, amount);
        balanceOf[player] = balance - amount;
        uint256 free = house + amount;
        if (free < reserve) revert HouseTooSmall(free, reserve);
        house = free - reserve;
        reservedBy[msg.sender] += reserve;
        emit Staked(msg.sender, player, amount, reserve);
    }

    /// @notice Called by a game when a bet closes: `payout` (at most what was reserved) goes to
    /// the player's balance and the rest of the reserve returns to the house.
    function settle(address player, uint256 reserve, uint256 payout) external {
        if (!isGame[msg.sender]) revert NotGame(msg.sender);
        if (payout > reserve) revert PayoutOverReserve(payout, reserve);
        reservedBy[msg.sender] -= reserve;
        house += reserve - payout;
        balanceOf[player] += payout;
        emit Settled(msg.sender, player, reserve, payout);
    }
}
