import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import solc from 'solc'
import { getAddress, type Address } from 'viem'
import { DEFAULT_RAW_BASE } from '../../registry/scripts/validate.mjs'
import type { Artifact } from '../../src/devnet/artifacts.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { startNode, type RunningNode } from '../helpers/devChain.ts'

const REGISTRY = join(import.meta.dir, '../../registry')
const VALIDATE = join(REGISTRY, 'scripts/validate.mjs')
/** anvil's second dev account: an address with no code. */
const WALLET: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const TINY_TOKEN = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The smallest ERC-20 that answers what a token list states: name, symbol, decimals.
contract TinyToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
`

function compileTinyToken(): Artifact {
  const input = {
    language: 'Solidity',
    sources: { 'TinyToken.sol': { content: TINY_TOKEN } },
    settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === 'error')
  if (errors.length) throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join('\n'))
  const contract = output.contracts['TinyToken.sol'].TinyToken
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
}

let anvil: RunningNode
let token: Address
const folders: string[] = []

beforeAll(async () => {
  anvil = await startNode()
  // The receipt gives the address in lower case; the list wants it checksummed.
  token = getAddress(await anvil.deploy(devAccounts.deployer, compileTinyToken(), ['Tiny Token', 'TINY', 6, 10n ** 12n]))
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

type Entry = { name: string; symbol: string; decimals: number }

/** A registry listing `address` (default: the deployed token) as `entry`, tagging it and `tagged`. */
function registryWith(entry: Entry, { address = token, tagged = [] }: { address?: Address; tagged?: Address[] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'registry-rpc-'))
  folders.push(dir)
  mkdirSync(join(dir, 'testnet/logos/tokens'), { recursive: true })
  copyFileSync(join(REGISTRY, 'testnet/logos/tokens/0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512.svg'), join(dir, `testnet/logos/tokens/${address}.svg`))
  const logoURI = `${DEFAULT_RAW_BASE}/testnet/logos/tokens/${address}.svg`
  const list = { name: 'RPC check', timestamp: '2026-11-23T00:30:00Z', version: { major: 1, minor: 0, patch: 0 }, tokens: [{ chainId: 78270, address, ...entry, logoURI }] }
  const tag = (name: string) => ({ name, category: 'token', project: 'Test', url: null, logo: null })
  const tags = {
    version: { major: 1, minor: 0, patch: 0 },
    timestamp: '2026-11-23T00:30:00Z',
    categories: { token: { name: 'Token', description: 'A token contract' } },
    tags: Object.fromEntries([address, ...tagged].map((tagged, i) => [tagged, tag(`Tag ${i}`)])),
  }
  writeFileSync(join(dir, 'testnet/tokenlist.json'), JSON.stringify(list, null, 2))
  writeFileSync(join(dir, 'testnet/tags.json'), JSON.stringify(tags, null, 2))
  return dir
}

async function validate(runtime: string, dir: string) {
  const child = Bun.spawn([runtime, VALIDATE, dir, '--rpc', anvil.rpcUrl], { stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, output: `${stdout}${stderr}` }
}

const RIGHT = { name: 'Tiny Token', symbol: 'TINY', decimals: 6 }

describe('--rpc checks the entries against a real chain', () => {
  test('a listed token that matches the chain passes, on Node.js and on Bun', async () => {
    const dir = registryWith(RIGHT)
    for (const runtime of ['node', process.execPath]) {
      const { code, output } = await validate(runtime, dir)
      expect(output).toContain(`the chain at ${anvil.rpcUrl}`)
      expect(output).toContain('OK: no problems')
      expect(code).toBe(0)
    }
  })

  test('wrong decimals, name and symbol are each reported with what the contract says', async () => {
    const { code, output } = await validate('node', registryWith({ name: 'Tiny', symbol: 'TNY', decimals: 18 }))
    expect(code).toBe(1)
    expect(output).toContain("testnet/tokenlist.json: tokens[0].decimals: is 18 but the contract's decimals() returns 6")
    expect(output).toContain('testnet/tokenlist.json: tokens[0].name: is "Tiny" but the contract\'s name() returns "Tiny Token"')
    expect(output).toContain('testnet/tokenlist.json: tokens[0].symbol: is "TNY" but the contract\'s symbol() returns "TINY"')
  })

  test('a tagged address without code is reported', async () => {
    const { code, output } = await validate('node', registryWith(RIGHT, { tagged: [WALLET] }))
    expect(code).toBe(1)
    expect(output).toContain(`testnet/tags.json: tags.${WALLET}: ${WALLET} has no contract code on chain 78270; only contracts are tagged`)
  })

  test('a listed token without code is reported', async () => {
    const { code, output } = await validate('node', registryWith(RIGHT, { address: WALLET }))
    expect(code).toBe(1)
    expect(output).toContain(`testnet/tokenlist.json: tokens[0].address: ${WALLET} has no contract code on this chain`)
    expect(output).toContain(`testnet/tags.json: tags.${WALLET}: ${WALLET} has no contract code on chain 78270; only contracts are tagged`)
  })

  test('a node of another chain is one clear problem', async () => {
    const other = await startNode({ chainId: 1 })
    try {
      const child = Bun.spawn(['node', VALIDATE, registryWith(RIGHT), '--rpc', other.rpcUrl], { stdout: 'pipe', stderr: 'pipe' })
      const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
      expect(code).toBe(1)
      expect(stdout).toContain(`--rpc ${other.rpcUrl}: the node serves chain 1, not testnet (78270)`)
    } finally {
      await other.stop()
    }
  })

  test('a node that does not answer is one clear problem', async () => {
    // A port that was free a moment ago: nothing listens there.
    const server = createServer().listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    await new Promise((resolve) => server.close(resolve))
    const url = `http://127.0.0.1:${port}`
    const child = Bun.spawn(['node', VALIDATE, registryWith(RIGHT), '--rpc', url], { stdout: 'pipe', stderr: 'pipe' })
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
    expect(code).toBe(1)
    expect(stdout).toContain(`--rpc ${url}: the node did not answer: fetch failed (ECONNREFUSED)`)
  })
})
