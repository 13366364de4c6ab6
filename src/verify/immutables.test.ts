import { describe, expect, test } from 'bun:test'
import solc from 'solc'
import { immutablePlaceholders } from './immutables.ts'

function compile(source: string) {
  const input = {
    language: 'Solidity',
    sources: { 'Held.sol': { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] } } },
  }
  const deployed = JSON.parse(solc.compile(JSON.stringify(input))).contracts['Held.sol'].Held.evm.deployedBytecode
  return { code: deployed.object as string, references: deployed.immutableReferences as Record<string, Array<{ start: number; length: number }>> }
}

describe('immutablePlaceholders', () => {
  test("finds exactly the places solc's immutableReferences name, from the code alone", () => {
    const held = compile(`// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Held {
    address public immutable owner;
    uint256 public immutable limit;
    uint256 public count;
    constructor(uint256 limit_) { owner = msg.sender; limit = limit_; }
    function bump() external { require(count < limit, "full"); count += 1; }
}`)
    const expected = Object.values(held.references).flat().sort((a, b) => a.start - b.start)
    expect(expected.length).toBeGreaterThanOrEqual(2)
    expect(immutablePlaceholders(held.code)).toEqual({ placeholders: expected })
    expect(immutablePlaceholders(`0x${held.code}`)).toEqual({ placeholders: expected })
  })

  test('a code without immutables has none, and the data of a PUSH is not read as code', () => {
    const plain = compile('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Held { uint256 public count; function bump() external { count += 1; } }')
    expect(plain.references).toEqual({})
    expect(immutablePlaceholders(plain.code)).toEqual({})
    // PUSH2 0x7f00 then 32 zeros: the 0x7f is data, not a PUSH32
    expect(immutablePlaceholders(`617f00${'00'.repeat(32)}`)).toEqual({})
    expect(immutablePlaceholders(`7f${'00'.repeat(32)}`)).toEqual({ placeholders: [{ start: 1, length: 32 }] })
  })

  test("a library's call protection, the PUSH20 of zeros its code starts with, is one", () => {
    const input = {
      language: 'Solidity',
      sources: { 'Far.sol': { content: '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\nlibrary Far { function twice(uint256 v) public pure returns (uint256) { return v * 2; } }' } },
      settings: { outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } } },
    }
    const code = JSON.parse(solc.compile(JSON.stringify(input))).contracts['Far.sol'].Far.evm.deployedBytecode.object as string
    expect(code.startsWith(`73${'00'.repeat(20)}3014`)).toBe(true)
    expect(immutablePlaceholders(code)).toEqual({ placeholders: [{ start: 1, length: 20 }] })
  })
})
