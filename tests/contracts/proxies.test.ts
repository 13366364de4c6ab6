import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeEventLog, getAddress, getContractAddress, type Address } from 'viem'
import { createChain, type Chain } from '../../src/chain/client.ts'
import { createContractBook } from '../../src/contracts/book.ts'
import { detectProxy } from '../../src/contracts/proxy.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { openSpool } from '../../src/spool/sqlite/db.ts'
import { openVerificationWriter, type NewVerification } from '../../src/spool/verified.ts'
import { maskedRuntimeHash } from '../../src/verify/bytecode.ts'
import { startNode, type RunningNode } from '../helpers/devChain.ts'
import { compileSolidity, type Compiled } from '../helpers/solidity.ts'

// Real proxies on a real anvil, each of a standard: the book must name the standard, the
// implementation, and decode through it.

const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
const BEACON_SLOT = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50'
const PROXIABLE_SLOT = '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7'

const delegate = (target: string) => `
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), ${target}, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) }
        }`

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Counter {
    uint256 public immutable step;
    uint256 public count;
    constructor(uint256 step_) { step = step_; }
    function bump() external { count += step; }
}

contract Proxy1967 {
    constructor(address implementation) { assembly { sstore(${IMPLEMENTATION_SLOT}, implementation) } }
    fallback() external payable {
        address target;
        assembly { target := sload(${IMPLEMENTATION_SLOT}) }
        ${delegate('target')}
    }
}

contract Beacon {
    address public implementation;
    constructor(address implementation_) { implementation = implementation_; }
}

contract BeaconProxy {
    constructor(address beacon) { assembly { sstore(${BEACON_SLOT}, beacon) } }
    fallback() external payable {
        address beacon;
        assembly { beacon := sload(${BEACON_SLOT}) }
        address target = Beacon(beacon).implementation();
        ${delegate('target')}
    }
}

contract Proxy1822 {
    constructor(address implementation) { assembly { sstore(${PROXIABLE_SLOT}, implementation) } }
    fallback() external payable {
        address target;
        assembly { target := sload(${PROXIABLE_SLOT}) }
        ${delegate('target')}
    }
}

contract CloneFactory {
    event Cloned(address clone);
    function clone(address implementation) external returns (address made) {
        bytes memory code = abi.encodePacked(hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3");
        assembly { made := create(0, add(code, 32), mload(code)) }
        emit Cloned(made);
    }
}

contract Forwarder {
    address public target;
    constructor(address target_) { target = target_; }
}
`

let node: RunningNode
let chain: Chain
let folder: string
let book: ReturnType<typeof createContractBook>
const compiled: Record<string, Compiled> = {}
const at: Record<string, Address> = {}
const { deployer } = devAccounts

beforeAll(async () => {
  for (const [id, contract] of Object.entries(compileSolidity({ 'Proxies.sol': SOURCE }).contracts)) compiled[id.split(':')[1]!] = contract
  node = await startNode()
  chain = createChain({ rpcUrl: node.rpcUrl, wsUrl: node.wsUrl, chainId: 78270 })
  at.counter = getAddress(await node.deploy(deployer, compiled.Counter!, [3n]))
  at.otherCounter = getAddress(await node.deploy(deployer, compiled.Counter!, [7n]))
  at.proxy = getAddress(await node.deploy(deployer, compiled.Proxy1967!, [at.counter]))
  at.beacon = getAddress(await node.deploy(deployer, compiled.Beacon!, [at.counter]))
  at.beaconProxy = getAddress(await node.deploy(deployer, compiled.BeaconProxy!, [at.beacon]))
  at.uups = getAddress(await node.deploy(deployer, compiled.Proxy1822!, [at.counter]))
  at.factory = getAddress(await node.deploy(deployer, compiled.CloneFactory!, []))
  at.forwarder = getAddress(await node.deploy(deployer, compiled.Forwarder!, [at.counter]))
  const receipt = await node.write(deployer, at.factory, compiled.CloneFactory!.abi, 'clone', [at.counter])
  at.clone = (decodeEventLog({ abi: compiled.CloneFactory!.abi, ...receipt.logs[0]! }).args as unknown as { clone: Address }).clone

  // A spool holding one verification: the implementation's.
  folder = mkdtempSync(join(tmpdir(), 'stack-proxies-'))
  const path = join(folder, 'spool.sqlite')
  const db = openSpool(path)
  const writer = openVerificationWriter(path)
  const code = (await chain.publicClient.getCode({ address: at.counter }))!
  await writer.record(verificationOf(at.counter, 'Counter', maskedRuntimeHash(code, { immutableReferences: compiled.Counter!.immutableReferences })))
  await writer.recordProxy({ address: at.forwarder, implementation: at.counter, blockNumber: null })
  writer.close()
  book = createContractBook(sqliteDb(db), { chain })
}, 60_000)

afterAll(async () => {
  await node?.stop()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

function verificationOf(address: Address, name: string, codeHash: `0x${string}`): NewVerification {
  const contract = compiled[name]!
  return {
    address,
    blockNumber: null,
    match: 'exact_match',
    creationMatch: null,
    runtimeMatch: 'exact_match',
    origin: 'etherscan',
    name,
    compilerVersion: 'v0.8.37+commit.f401782d',
    codeHash,
    details: {
      abi: contract.abi,
      sources: { 'Proxies.sol': SOURCE },
      contractIdentifier: `Proxies.sol:${name}`,
      optimizer: { enabled: false, runs: 200 },
      evmVersion: null,
      libraries: {},
      constructorArguments: '',
      licence: 'MIT',
      stdJsonInput: null,
      immutableReferences: contract.immutableReferences,
    },
  }
}

describe('detectProxy, against real proxies', () => {
  test('the proxies work: a bump through each lands in its own storage with the implementation’s immutable step', async () => {
    for (const proxy of [at.proxy!, at.beaconProxy!, at.uups!, at.clone!]) {
      await node.write(deployer, proxy, compiled.Counter!.abi, 'bump', [])
      expect(await node.read<bigint>(proxy, compiled.Counter!.abi, 'count')).toBe(3n)
    }
    expect(await node.read<bigint>(at.counter!, compiled.Counter!.abi, 'count')).toBe(0n)
  })

  test('names each standard and the implementation', async () => {
    const lower = (found: Awaited<ReturnType<typeof detectProxy>>) => found && { kind: found.kind, implementation: found.implementation.toLowerCase() }
    const implementation = at.counter!.toLowerCase()
    expect(lower(await detectProxy(chain, at.proxy!))).toEqual({ kind: 'eip1967', implementation })
    expect(lower(await detectProxy(chain, at.beaconProxy!))).toEqual({ kind: 'eip1967-beacon', implementation })
    expect(lower(await detectProxy(chain, at.uups!))).toEqual({ kind: 'eip1822', implementation })
    expect(lower(await detectProxy(chain, at.clone!))).toEqual({ kind: 'eip1167', implementation })
  })

  test('a contract, a beacon, an account and an address with nothing are no proxy', async () => {
    expect(await detectProxy(chain, at.counter!)).toBeNull()
    expect(await detectProxy(chain, at.beacon!)).toBeNull()
    expect(await detectProxy(chain, at.forwarder!)).toBeNull()
    expect(await detectProxy(chain, deployer.address)).toBeNull()
    expect(await detectProxy(chain, '0x000000000000000000000000000000000000dEaD')).toBeNull()
  })
})

describe('the book', () => {
  test('an unverified proxy is not known itself, but its proxy is, with the verified implementation as its target', async () => {
    expect(await book.lookup(at.proxy!)).toBeNull()
    for (const [address, kind] of [
      [at.proxy, 'eip1967'],
      [at.beaconProxy, 'eip1967-beacon'],
      [at.uups, 'eip1822'],
      [at.clone, 'eip1167'],
    ] as const) {
      const proxy = await book.proxyOf(address!)
      expect(proxy?.kind).toBe(kind)
      expect(proxy?.implementation).toBe(at.counter!)
      expect(proxy?.target?.name).toBe('Counter')
      expect(proxy?.target?.by.kind).toBe('verified')
      expect(proxy?.target?.abi.some((item) => item.type === 'function' && item.name === 'bump')).toBe(true)
    }
  })

  test('a verified proxy carries its proxy and target in the lookup', async () => {
    const path = join(folder, 'spool.sqlite')
    const writer = openVerificationWriter(path)
    const code = (await chain.publicClient.getCode({ address: at.proxy! }))!
    await writer.record(verificationOf(at.proxy!, 'Proxy1967', maskedRuntimeHash(code)))
    writer.close()
    const known = await book.lookup(at.proxy!)
    expect(known?.name).toBe('Proxy1967')
    expect(known?.proxy?.kind).toBe('eip1967')
    expect(known?.proxy?.target?.name).toBe('Counter')
  })

  test('an implementation changed in its slot is seen once the short keep of a proxy read is over', async () => {
    const clock = { now: 1000 }
    const fresh = createContractBook(sqliteDb(openSpool(join(folder, 'spool.sqlite'))), { chain, clock: () => clock.now })
    expect((await fresh.proxyOf(at.uups!))?.implementation).toBe(at.counter!)
    await node.test.setStorageAt({ address: at.uups!, index: PROXIABLE_SLOT, value: `0x${at.otherCounter!.slice(2).toLowerCase().padStart(64, '0')}` })
    expect((await fresh.proxyOf(at.uups!))?.implementation).toBe(at.counter!)
    clock.now += 10_000
    const moved = await fresh.proxyOf(at.uups!)
    expect(moved?.implementation).toBe(at.otherCounter!)
    // the other counter has no verification of its own: it is the first one's by the same code
    expect(moved?.target?.by.kind).toBe('similar')
  })

  test('a verifyproxycontract record names the implementation of a contract that follows no standard', async () => {
    const proxy = await book.proxyOf(at.forwarder!)
    expect(proxy?.kind).toBe('recorded')
    expect(proxy?.implementation).toBe(at.counter!)
    expect(proxy?.target?.name).toBe('Counter')
  })

  test('the same code with another immutable is similar to the verified one, named after it', async () => {
    const known = await book.lookup(at.otherCounter!)
    expect(known?.name).toBe('Counter')
    expect(known?.by.kind).toBe('similar')
    if (known?.by.kind !== 'similar') throw new Error('not similar')
    expect(known.by.via).toBe(at.counter!)
    expect(known.by.verification.address).toBe(at.counter!)
    expect(known.proxy).toBeNull()
  })

  test('code read from the node is kept: a new contract is seen after seconds, one taken back by a reorganisation after a minute', async () => {
    const clock = { now: 1000 }
    const fresh = createContractBook(sqliteDb(openSpool(join(folder, 'spool.sqlite'))), { chain, clock: () => clock.now })
    const next = getContractAddress({ from: deployer.address, nonce: BigInt(await chain.publicClient.getTransactionCount({ address: deployer.address })) })
    const before = await node.test.snapshot()
    expect(await fresh.lookup(next)).toBeNull()
    expect(getAddress(await node.deploy(deployer, compiled.Counter!, [11n]))).toBe(next)
    expect(await fresh.lookup(next)).toBeNull()
    clock.now += 2_500
    expect((await fresh.lookup(next))?.by.kind).toBe('similar')
    await node.test.revert({ id: before })
    expect(await chain.publicClient.getCode({ address: next })).toBeUndefined()
    expect((await fresh.lookup(next))?.by.kind).toBe('similar')
    clock.now += 61_000
    expect(await fresh.lookup(next)).toBeNull()
  })

  test('other code is not similar, and garbage is nobody', async () => {
    expect(await book.lookup(at.beacon!)).toBeNull()
    expect(await book.lookup('0xnot-an-address')).toBeNull()
    expect(await book.proxyOf('0x1234')).toBeNull()
  })
})
