import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import solc from 'solc'
import { getAddress, type Abi, type Address, type Hash, type Hex } from 'viem'
import { createRpc, type Rpc } from '../../src/chain/rpc.ts'
import type { Runtime } from '../../src/ops/runtime.ts'
import { forgeVerify } from '../etherscan/helpers.ts'
import { waitFor } from '../helpers/wait.ts'

// A developer's own contract on the seeded dev stack, as the contract pages are tried on it:
// compiled here by solc-js, deployed from an unlocked anvil account, and verified through the
// stack's Etherscan-compatible listener with the requests forge sends.

export const SOURCE_PATH = 'src/Counter.sol'

/** A line longer than any screen, so that the source box must scroll it inside itself. */
const LONG_LINE = `    // ${'This comment runs on and on to show that a long line scrolls inside its own box and never widens the page. '.repeat(3)}`

export const COUNTER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A counter a person can read and move.
contract Counter {
    uint256 public count;
    address public owner;

    error TooMany(uint256 asked, uint256 limit);
    event Moved(address indexed by, uint256 count);

    constructor(uint256 start) {
        count = start;
        owner = msg.sender;
    }

    function add(uint256 by) external {
${LONG_LINE}
        if (by > 100) revert TooMany(by, 100);
        count += by;
        emit Moved(msg.sender, count);
    }

    function fail() external {
        require(count > 1000000, "the counter refuses");
        count = 0;
    }

    function describe(string calldata name) external view returns (string memory label, uint256 value) {
        return (string.concat(name, " is at"), count);
    }

    function ratio(uint256 by) external view returns (uint256) {
        if (by > 1000) revert TooMany(by, 1000);
        return count / by;
    }

    function spin() external pure returns (uint256 n) {
        while (true) n++;
    }

    function burn(uint256 rounds) external pure returns (uint256 n) {
        for (uint256 i; i < rounds; i++) n += i;
    }

    function deposit() external payable {}
}
`

/** anvil's dev account #9: the seed never uses it, so its nonces are this file's alone. */
export const SENDER: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
export const START = 41n

export type Counter = { address: Address; abi: Abi; rpc: Rpc; rpcUrl: string; deployTx: Hash; compilerVersion: string }

/** The stack's own runtime file: where its node answers and where its spool is. */
export function stackRuntime(dir: string): Runtime {
  return JSON.parse(readFileSync(join(dir, 'data', 'runtime.json'), 'utf8')) as Runtime
}

export function compileCounter() {
  const input = {
    language: 'Solidity',
    sources: { [SOURCE_PATH]: { content: COUNTER_SOURCE } },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((entry: { severity: string }) => entry.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((entry: { formattedMessage: string }) => entry.formattedMessage).join('\n'))
  const contract = output.contracts[SOURCE_PATH].Counter
  const version = `v${solc.version().replace(/\.Emscripten.*$/, '')}`
  return { input, version, abi: contract.abi as Abi, bytecode: `0x${contract.evm.bytecode.object}` as Hex }
}

/** Sends from SENDER as it is (anvil's unlocked account) and waits for the receipt. */
export async function sendAndWait(rpc: Rpc, tx: Record<string, string>): Promise<{ hash: Hash; receipt: { status: Hex; blockNumber: Hex; contractAddress: Address | null } }> {
  const hash = await rpc.call<Hash>('eth_sendTransaction', [{ from: SENDER, ...tx }])
  let receipt: { status: Hex; blockNumber: Hex; contractAddress: Address | null } | null = null
  await waitFor(async () => (receipt = await rpc.call('eth_getTransactionReceipt', [hash])) !== null, `the receipt of ${hash}`, 30_000)
  return { hash, receipt: receipt! }
}

/** Deploys the counter and verifies it as forge would, through the stack's Etherscan-compatible listener at `etherscan`. */
export async function deployVerifiedCounter(dir: string, etherscan: string): Promise<Counter> {
  const runtime = stackRuntime(dir)
  const rpc = createRpc(runtime.rpcUrl)
  const compiled = compileCounter()
  const constructorArguments = START.toString(16).padStart(64, '0')
  const { hash, receipt } = await sendAndWait(rpc, { data: `${compiled.bytecode}${constructorArguments}`, gas: '0x1e8480' })
  const address = getAddress(receipt.contractAddress!)
  const { statuses } = await forgeVerify(etherscan, { address, input: compiled.input, contractName: `${SOURCE_PATH}:Counter`, compilerVersion: compiled.version, constructorArguments })
  const last = statuses.at(-1)
  if (last?.result !== 'Pass - Verified') throw new Error(`the counter did not verify: ${JSON.stringify(last)}`)
  return { address, abi: compiled.abi, rpc, rpcUrl: runtime.rpcUrl, deployTx: hash, compilerVersion: compiled.version }
}

const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'

/** An EIP-1967 proxy, verified by nobody: the counter's pages offer their functions through it. */
const PROXY_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Proxy1967 {
    constructor(address implementation) { assembly { sstore(${IMPLEMENTATION_SLOT}, implementation) } }
    fallback() external payable {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), sload(${IMPLEMENTATION_SLOT}), 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) }
        }
    }
}
`

/** Deploys an EIP-1967 proxy to `implementation`: its storage is its own, so its count starts at 0. */
export async function deployProxy(rpc: Rpc, implementation: Address): Promise<Address> {
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources: { 'Proxy.sol': { content: PROXY_SOURCE } }, settings: { outputSelection: { '*': { '*': ['evm.bytecode.object'] } } } })))
  const bytecode = output.contracts['Proxy.sol'].Proxy1967.evm.bytecode.object as string
  const { receipt } = await sendAndWait(rpc, { data: `0x${bytecode}${implementation.slice(2).toLowerCase().padStart(64, '0')}`, gas: '0xf4240' })
  return getAddress(receipt.contractAddress!)
}
