// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

interface INamesFeeRouter {
    function payToken(uint8 source, uint256 amount) external;
}

/// @notice The chain's name service, registry and resolver in one: labels of 3 to 32 characters
/// of a-z, 0-9 and "-" (not first or last) under the suffix `.bx`, registered by the year and
/// paid in the native token (BX) into the fee router. A name has an owner, an expiry, the address
/// it resolves to, text records (twitter, website, description, or any other key), and an
/// address may name itself by a reverse record. Labels the owner reserves cannot be registered.
/// An expired name resolves to nothing and anyone may register it again.
contract NameRegistry {
    using SafeERC20 for IERC20;

    string public constant SUFFIX = "bx";
    uint256 public constant YEAR = 365 days;
    uint256 public constant MAX_YEARS = 10;
    /// The fee router's source number for names (FeeRouter.Source.Name).
    uint8 private constant SOURCE_NAME = 1;

    address public immutable owner;
    IERC20 public immutable token;
    INamesFeeRouter public immutable feeRouter;
    /// The yearly price in BX base units of a label of 3, of 4, and of 5 or more characters.
    uint256 public immutable price3;
    uint256 public immutable price4;
    uint256 public immutable price5;

    struct Name {
        address owner;
        address resolved;
        uint64 expires;
    }

    /// What a lookup shows of a label, read in one call.
    struct Record {
        string label;
        bool valid;
        bool reserved;
        bool available;
        address owner;
        address resolved;
        uint256 expires;
        uint256 price;
        string twitter;
        string website;
        string description;
    }

    mapping(bytes32 => Name) private names;
    mapping(bytes32 => bool) public reserved;
    mapping(bytes32 => mapping(string => string)) private texts;
    /// The label an address names itself by (valid while that name is live and resolves to it).
    mapping(address => string) private reverse;

    event NameRegistered(bytes32 indexed id, address indexed owner, string label, uint256 expires, uint256 fee);
    event NameRenewed(bytes32 indexed id, string label, uint256 expires, uint256 fee);
    event NameTransferred(bytes32 indexed id, address indexed from, address indexed to);
    event ResolvedChanged(bytes32 indexed id, address resolved);
    event TextChanged(bytes32 indexed id, string key, string value);
    event ReverseChanged(address indexed account, string label);
    event ReservedChanged(bytes32 indexed id, string label, bool reserved);

    error NotOwner(address caller);
    error NotNameOwner(bytes32 id, address caller);
    error InvalidLabel(string label);
    error Unavailable(string label);
    error NotRegistered(string label);
    error BadYears(uint256 yearCount);
    error NotResolvedTo(string label, address account);

    constructor(address owner_, IERC20 token_, INamesFeeRouter feeRouter_, uint256 price3_, uint256 price4_, uint256 price5_) {
        owner = owner_;
        token = token_;
        feeRouter = feeRouter_;
        price3 = price3_;
        price4 = price4_;
        price5 = price5_;
    }

    // ---- reading

    function idOf(string memory label) public pure returns (bytes32) {
        return keccak256(bytes(label));
    }

    /// @notice Whether `label` can be a name: 3 to 32 of a-z, 0-9 and "-", not starting or ending with "-".
    function validLabel(string memory label) public pure returns (bool) {
        bytes memory b = bytes(label);
        if (b.length < 3 || b.length > 32) return false;
        for (uint256 i = 0; i < b.length; i++) {
            bytes1 c = b[i];
            bool ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c == 0x2d && i != 0 && i != b.length - 1);
            if (!ok) return false;
        }
        return true;
    }

    /// @notice The yearly price of `label` in BX base units, by its length.
    function yearlyPrice(string memory label) public view returns (uint256) {
        uint256 length = bytes(label).length;
        return length == 3 ? price3 : length == 4 ? price4 : price5;
    }

    function live(bytes32 id) public view returns (bool) {
        return names[id].expires > block.timestamp;
    }

    function available(string memory label) public view returns (bool) {
        bytes32 id = idOf(label);
        return validLabel(label) && !reserved[id] && !live(id);
    }

    /// @notice The address `label` resolves to: none once it expired.
    function resolve(string memory label) external view returns (address) {
        bytes32 id = idOf(label);
        return live(id) ? names[id].resolved : address(0);
    }

    function text(string memory label, string memory key) external view returns (string memory) {
        return texts[idOf(label)][key];
    }

    /// @notice Everything a lookup shows of `label`. An expired name keeps its last owner and
    /// expiry, and is available again.
    function lookup(string memory label) public view returns (Record memory record) {
        bytes32 id = idOf(label);
        Name memory name = names[id];
        record.label = label;
        record.valid = validLabel(label);
        record.reserved = reserved[id];
        record.available = record.valid && !record.reserved && name.expires <= block.timestamp;
        record.owner = name.owner;
        record.resolved = name.expires > block.timestamp ? name.resolved : address(0);
        record.expires = name.expires;
        record.price = record.valid ? yearlyPrice(label) : 0;
        record.twitter = texts[id]["twitter"];
        record.website = texts[id]["website"];
        record.description = texts[id]["description"];
    }

    /// @notice The label `account` names itself by: its reverse record, while that name is live
    /// and resolves to it; "" otherwise.
    function nameOf(address account) public view returns (string memory) {
        string memory label = reverse[account];
        bytes32 id = idOf(label);
        if (bytes(label).length == 0 || !live(id) || names[id].resolved != account) return "";
        return label;
    }

    /// @notice The record of the name `account` names itself by; an empty label when none.
    function reverseLookup(address account) external view returns (Record memory record) {
        string memory label = nameOf(account);
        if (bytes(label).length > 0) record = lookup(label);
    }

    // ---- writing

    /// @notice Registers `label` for `yearCount` years, owned by and resolving to the caller, paying
    /// the yearly price times the years in BX (approved to this contract) into the fee router.
    /// The caller's reverse record is set too when it has none.
    function register(string calldata label, uint256 yearCount) external {
        if (!validLabel(label)) revert InvalidLabel(label);
        if (yearCount == 0 || yearCount > MAX_YEARS) revert BadYears(yearCount);
        bytes32 id = idOf(label);
        if (reserved[id] || live(id)) revert Unavailable(label);
        uint256 fee = yearlyPrice(label) * yearCount;
        uint64 expires = uint64(block.timestamp + yearCount * YEAR);
        address previous = names[id].owner;
        names[id] = Name(msg.sender, msg.sender, expires);
        // A name taken again after it expired starts without the old owner's records.
        delete texts[id]["twitter"];
        delete texts[id]["website"];
        delete texts[id]["description"];
        if (previous != address(0) && previous != msg.sender) emit NameTransferred(id, previous, msg.sender);
        emit NameRegistered(id, msg.sender, label, expires, fee);
        emit ResolvedChanged(id, msg.sender);
        if (bytes(nameOf(msg.sender)).length == 0) {
            reverse[msg.sender] = label;
            emit ReverseChanged(msg.sender, label);
        }
        _pay(fee);
    }

    /// @notice Extends a live name by `yearCount` years; anyone may pay for it.
    function renew(string calldata label, uint256 yearCount) external {
        bytes32 id = idOf(label);
        if (!live(id)) revert NotRegistered(label);
        if (yearCount == 0 || yearCount > MAX_YEARS) revert BadYears(yearCount);
        uint256 fee = yearlyPrice(label) * yearCount;
        uint64 expires = uint64(names[id].expires + yearCount * YEAR);
        names[id].expires = expires;
        emit NameRenewed(id, label, expires, fee);
        _pay(fee);
    }

    function transfer(string calldata label, address to) external {
        bytes32 id = _owned(label);
        names[id].owner = to;
        emit NameTransferred(id, msg.sender, to);
    }

    function setResolved(string calldata label, address resolved) external {
        bytes32 id = _owned(label);
        names[id].resolved = resolved;
        emit ResolvedChanged(id, resolved);
    }

    function setText(string calldata label, string calldata key, string calldata value) external {
        bytes32 id = _owned(label);
        texts[id][key] = value;
        emit TextChanged(id, key, value);
    }

    /// @notice Names the caller by `label` (which must be live and resolve to the caller), or by
    /// nothing with "".
    function setReverse(string calldata label) external {
        if (bytes(label).length > 0) {
            bytes32 id = idOf(label);
            if (!live(id) || names[id].resolved != msg.sender) revert NotResolvedTo(label, msg.sender);
        }
        reverse[msg.sender] = label;
        emit ReverseChanged(msg.sender, label);
    }

    /// @notice The owner reserves a label (or frees it): a reserved label cannot be registered.
    function setReserved(string calldata label, bool isReserved) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (!validLabel(label)) revert InvalidLabel(label);
        reserved[idOf(label)] = isReserved;
        emit ReservedChanged(idOf(label), label, isReserved);
    }

    function _owned(string calldata label) private view returns (bytes32 id) {
        id = idOf(label);
        if (!live(id) || names[id].owner != msg.sender) revert NotNameOwner(id, msg.sender);
    }

    function _pay(uint256 fee) private {
        token.safeTransferFrom(msg.sender, address(this), fee);
        token.forceApprove(address(feeRouter), fee);
        feeRouter.payToken(SOURCE_NAME, fee);
    }
}
