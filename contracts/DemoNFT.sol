// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";

/// @notice A small ERC-721 collection for the dev chain. Each item's tokenURI is a data: URI,
/// so the explorer can show its metadata and image without any network.
contract DemoNFT is ERC721URIStorage {
    address public immutable minter;
    uint256 public totalSupply;

    error NotMinter(address caller);

    constructor(string memory name_, string memory symbol_, address minter_) ERC721(name_, symbol_) {
        minter = minter_;
    }

    function mint(address to, string calldata uri) external returns (uint256 tokenId) {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        tokenId = ++totalSupply;
        _safeMint(to, tokenId);
        _setTokenURI(tokenId, uri);
    }
}
