// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What the bank needs of the fee layer: a payable entry for the arcade's skims.
interface IFeeRouter {
    function receiveArcadeSkim() external payable;
}

/// @notice The arcade's ether: each player's balance, and the house's bankroll that pays winners.
/// The owner enables games. A game takes a player's stake into the house and reserves the most the
/// bet can pay out of the free bankroll, so every open bet can always be paid; settling frees the
/// reserve and credits the payout. Players deposit and withdraw their own balance at any time.
///
/// Once the owner names a fee router, a share of every stake (SKIM_BPS, 0.5 %) leaves the bank
/// as ether to it when the bet is taken, whatever the bet's outcome; the rest of the stake joins
/// the house. Every game's edge is larger than the skim, so the house keeps the difference.
contract ArcadeBank {
    /// The share of each stake sent to the fee router, in basis points.
    uint256 public constant SKIM_BPS = 50;

    address public immutable owner;
    /// Where skims go; none are taken while it is the zero address.
    address public feeRouter;
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
    event FeeRouterSet(address indexed feeRouter);
    event Skimmed(address indexed game, address indexed player, address indexed feeRouter, uint256 amount);

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

    /// @notice Names the fee router that receives the skims (the zero address stops them).
    function setFeeRouter(address router) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        feeRouter = router;
        emit FeeRouterSet(router);
    }

    /// @notice The part of a stake of `amount` that goes to the fee router.
    function skimOf(uint256 amount) public view returns (uint256) {
        return feeRouter == address(0) ? 0 : (amount * SKIM_BPS) / 10_000;
    }

    /// @notice Called by a game when `player` bets `amount`: the skim goes to the fee router, the
    /// rest of the stake joins the house, and `reserve` (the most the bet can pay) is set aside.
    function stake(address player, uint256 amount, uint256 reserve) external {
        if (!isGame[msg.sender]) revert NotGame(msg.sender);
        uint256 balance = balanceOf[player];
        if (balance < amount) revert InsufficientBalance(player, balance, amount);
        balanceOf[player] = balance - amount;
        uint256 skim = skimOf(amount);
        uint256 free = house + amount - skim;
        if (free < reserve) revert HouseTooSmall(free, reserve);
        house = free - reserve;
        reservedBy[msg.sender] += reserve;
        emit Staked(msg.sender, player, amount, reserve);
        if (skim > 0) {
            address router = feeRouter;
            emit Skimmed(msg.sender, player, router, skim);
            IFeeRouter(router).receiveArcadeSkim{value: skim}();
        }
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
