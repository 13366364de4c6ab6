import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodeAbiParameters, getAddress, parseAbi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ANVIL_DEV_KEYS } from '../../src/devnet/accounts.ts'
import { verifiedContract, verifiedProxy } from '../../src/spool/verified.ts'
import { maskedRuntimeHash } from '../../src/verify/bytecode.ts'
import { compileFixture, deployFixture, fixtureSource, SOLCJS_VERSION, standardInput, type Deployed } from '../helpers/verifyFixtures.ts'
import { waitFor } from '../helpers/wait.ts'
import { etherscanAnswer, etherscanStack, forgeVerify, formBody, hardhatVerify, type EtherscanStack } from './helpers.ts'

// An EIP-1967 proxy: the implementation in the standard slot, every call delegated to it.
const PROXY_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Proxy {
    bytes32 private constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;

    constructor(address implementation) {
        assembly { sstore(IMPLEMENTATION_SLOT, implementation) }
    }

    fallback() external payable {
        assembly {
            let implementation := sload(IMPLEMENTATION_SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) }
        }
    }
}
`

let stack: EtherscanStack
beforeAll(async () => {
  stack = await etherscanStack()
})
afterAll(async () => {
  await stack?.stop()
})

const api = (query: string) => fetch(`${stack.url}/api?${query}`).then(etherscanAnswer)
const post = (fields: Array<[string, string]>) =>
  fetch(`${stack.url}/api/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) }).then(etherscanAnswer)

const counterInput = standardInput(['Counter.sol'])
const deployCounter = () => deployFixture(stack.node.anvil.rpcUrl, compileFixture(counterInput, 'src/Counter.sol:Counter'))
/**
 * A Counter of code no other contract of the file has (its limit changed): the contract book
 * knows every contract of a verified one's code, so a test of an unverified one needs its own.
 */
async function deployUniqueCounter(limit: number) {
  const input = standardInput({ 'Counter.sol': fixtureSource('Counter.sol').replaceAll('1000', String(limit)) })
  return { input, deployed: await deployFixture(stack.node.anvil.rpcUrl, compileFixture(input, 'src/Counter.sol:Counter')) }
}

/** The creation block of a deployment, as the chain has it. */
async function blockOf(deployed: Deployed): Promise<number> {
  const receipt = await stack.node.clients.publicClient.getTransactionReceipt({ hash: deployed.txHash })
  return Number(receipt.blockNumber)
}

describe("forge's requests (--verifier blockscout, --verifier-url …/api/)", () => {
  test('a plain contract: getabi says not verified, the form POST answers a guid, the status passes, and the spool keeps it with its creation', async () => {
    const deployed = await deployCounter()
    const { abiCheck, submitted, statuses } = await forgeVerify(stack.url, { address: deployed.address, input: counterInput, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION })
    expect(abiCheck).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code not verified' })
    expect(submitted).toMatchObject({ status: '1', message: 'OK' })
    expect(submitted.result).toMatch(/^[0-9a-f-]{36}$/)
    expect(statuses.at(-1)).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' })
    for (const pending of statuses.slice(0, -1)) expect(pending).toEqual({ status: '0', message: 'NOTOK', result: 'Pending in queue' })

    const abi = await api(`module=contract&action=getabi&address=${deployed.address}`)
    expect(abi.status).toBe('1')
    expect(abi.message).toBe('OK')
    expect(JSON.parse(abi.result)).toEqual(compileFixture(counterInput, 'src/Counter.sol:Counter').abi)

    const record = (await verifiedContract(stack.spool.reader, deployed.address))!
    expect(record).toMatchObject({ origin: 'etherscan', match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match', name: 'Counter', compilerVersion: SOLCJS_VERSION })
    expect(record.blockNumber).toBe(await blockOf(deployed))
    expect(record.codeHash).toBe(maskedRuntimeHash(deployed.runtimeCode))
  })

  test('getsourcecode answers every key Etherscan has, the standard JSON input wrapped in double braces', async () => {
    const deployed = await deployCounter()
    const { statuses } = await forgeVerify(stack.url, { address: deployed.address, input: counterInput, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION })
    expect(statuses.at(-1)!.result).toBe('Pass - Verified')
    const answer = await api(`module=contract&action=getsourcecode&address=${deployed.address}&apikey=x&chainid=78270`)
    expect(answer.status).toBe('1')
    expect(answer.result).toHaveLength(1)
    const entry = answer.result[0]
    expect(Object.keys(entry).sort()).toEqual(
      [
        'SourceCode',
        'ABI',
        'ContractName',
        'CompilerVersion',
        'OptimizationUsed',
        'Runs',
        'ConstructorArguments',
        'EVMVersion',
        'Library',
        'LicenseType',
        'Proxy',
        'Implementation',
        'SwarmSource',
      ].sort(),
    )
    expect(entry.SourceCode.startsWith('{{') && entry.SourceCode.endsWith('}}')).toBe(true)
    expect(JSON.parse(entry.SourceCode.slice(1, -1))).toEqual(counterInput)
    expect(entry).toMatchObject({
      ContractName: 'Counter',
      CompilerVersion: SOLCJS_VERSION,
      OptimizationUsed: '1',
      Runs: '200',
      ConstructorArguments: '',
      Library: '',
      LicenseType: 'MIT',
      Proxy: '0',
      Implementation: '',
    })
    expect(JSON.parse(entry.ABI)).toEqual(compileFixture(counterInput, 'src/Counter.sol:Counter').abi)
  })

  test('an unverified contract: getsourcecode is status 1 with an empty SourceCode, getabi the NOTOK', async () => {
    const { deployed } = await deployUniqueCounter(5151)
    expect(await api(`module=contract&action=getabi&address=${deployed.address}`)).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code not verified' })
    const answer = await api(`module=contract&action=getsourcecode&address=${deployed.address}`)
    expect(answer).toMatchObject({ status: '1', message: 'OK' })
    expect(answer.result[0]).toMatchObject({ SourceCode: '', ABI: 'Contract source code not verified', ContractName: '', Proxy: '0' })
  })

  test('constructor arguments, sent as constructorArguements and constructorArguments, are checked and kept', async () => {
    const input = standardInput(['Greeter.sol'])
    const compiled = compileFixture(input, 'src/Greeter.sol:Greeter')
    const deployed = await deployFixture(stack.node.anvil.rpcUrl, compiled, { args: ['hello, stack', 7n] })
    const args = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['hello, stack', 7n]).slice(2)
    const { statuses } = await forgeVerify(stack.url, { address: deployed.address, input, contractName: 'src/Greeter.sol:Greeter', compilerVersion: SOLCJS_VERSION, constructorArguments: args })
    expect(statuses.at(-1)).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' })
    const entry = (await api(`module=contract&action=getsourcecode&address=${deployed.address}`)).result[0]
    expect(entry.ConstructorArguments).toBe(args)
    expect(entry.LicenseType).toBe('Apache-2.0')
  })

  test('constructor arguments other than the creation’s fail the verification', async () => {
    const input = standardInput(['Greeter.sol'])
    const deployed = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(input, 'src/Greeter.sol:Greeter'), { args: ['hello', 1n] })
    const wrong = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['hello', 2n]).slice(2)
    const { statuses } = await forgeVerify(stack.url, { address: deployed.address, input, contractName: 'src/Greeter.sol:Greeter', compilerVersion: SOLCJS_VERSION, constructorArguments: wrong })
    expect(statuses.at(-1)!.status).toBe('0')
    expect(statuses.at(-1)!.result).toStartWith('Fail - Unable to verify. the constructor arguments given')
  })

  test('a contract using a linked library verifies, the library named in getsourcecode', async () => {
    const libraryInput = standardInput(['Calculator.sol'])
    const library = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(libraryInput, 'src/Calculator.sol:MathLib'))
    const input = standardInput(['Calculator.sol'], { libraries: { 'src/Calculator.sol': { MathLib: library.address } } })
    const deployed = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(input, 'src/Calculator.sol:Calculator'))
    const { statuses } = await forgeVerify(stack.url, { address: deployed.address, input, contractName: 'src/Calculator.sol:Calculator', compilerVersion: SOLCJS_VERSION })
    expect(statuses.at(-1)!.result).toBe('Pass - Verified')
    const entry = (await api(`module=contract&action=getsourcecode&address=${deployed.address}`)).result[0]
    expect(entry.Library).toBe(`MathLib:${library.address.slice(2).toLowerCase()}`)
  })

  test('a contract made by a factory verifies from the creating frame’s input, and getcontractcreation names the factory', async () => {
    const input = standardInput(['PairFactory.sol'])
    const factory = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(input, 'src/PairFactory.sol:PairFactory'))
    const account = privateKeyToAccount(ANVIL_DEV_KEYS[0]!)
    const abi = parseAbi(['function create() returns (address)', 'function pairs(uint256) view returns (address)'])
    const receipt = await stack.node.write(account, factory.address, abi, 'create')
    const hash = receipt.transactionHash
    const pair = (await stack.node.clients.publicClient.readContract({ address: factory.address, abi, functionName: 'pairs', args: [0n] })) as Hex
    const { statuses } = await forgeVerify(stack.url, { address: pair, input, contractName: 'src/PairFactory.sol:Pair', compilerVersion: SOLCJS_VERSION })
    expect(statuses.at(-1)!.result).toBe('Pass - Verified')
    const record = (await verifiedContract(stack.spool.reader, pair))!
    expect(record.name).toBe('Pair')
    expect(record.blockNumber).toBe(Number(receipt.blockNumber))
    // Every other pair the factory makes is known by the same code (its immutables masked), unasked.
    await stack.node.write(account, factory.address, abi, 'create')
    const second = (await stack.node.clients.publicClient.readContract({ address: factory.address, abi, functionName: 'pairs', args: [1n] })) as Hex
    expect(JSON.parse((await api(`module=contract&action=getabi&address=${second}`)).result)).toEqual(compileFixture(input, 'src/PairFactory.sol:Pair').abi)
    expect((await api(`module=contract&action=getsourcecode&address=${second}`)).result[0].ContractName).toBe('Pair')

    const creation = await api(`module=contract&action=getcontractcreation&contractaddresses=${pair},${factory.address}`)
    expect(creation).toEqual({
      status: '1',
      message: 'OK',
      result: [
        { contractAddress: pair.toLowerCase(), contractCreator: factory.address.toLowerCase(), txHash: hash, blockNumber: String(receipt.blockNumber) },
        { contractAddress: factory.address.toLowerCase(), contractCreator: account.address.toLowerCase(), txHash: factory.txHash, blockNumber: String(await blockOf(factory)) },
      ],
    })
  })

  test('a changed source fails with Fail - Unable to verify and the reason, and the contract stays unverified', async () => {
    const deployed = await deployCounter()
    const changed = standardInput({ 'Counter.sol': fixtureSource('Counter.sol').replace('1000', '2000') })
    const { statuses } = await forgeVerify(stack.url, { address: deployed.address, input: changed, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION })
    const last = statuses.at(-1)!
    expect(last.status).toBe('0')
    expect(last.message).toBe('NOTOK')
    expect(last.result).toStartWith('Fail - Unable to verify. ')
    expect(last.result.length).toBeGreaterThan('Fail - Unable to verify. '.length)
    expect(await verifiedContract(stack.spool.reader, deployed.address)).toBeNull()
  })

  test('a verified contract: getabi answers OK (forge skips it) and a second submission is Contract source code already verified', async () => {
    const deployed = await deployCounter()
    await forgeVerify(stack.url, { address: deployed.address, input: counterInput, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION })
    const again = await forgeVerify(stack.url, { address: deployed.address, input: counterInput, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION })
    expect(again.abiCheck.status).toBe('1')
    expect(again.submitted).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code already verified' })
  })

  test('a verification follows the chain: a reorganisation that takes the creation back takes the verification with it', async () => {
    const { input, deployed } = await deployUniqueCounter(6161)
    const { statuses } = await forgeVerify(stack.url, { address: deployed.address, input, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION })
    expect(statuses.at(-1)!.result).toBe('Pass - Verified')
    const head = await stack.node.head()
    await stack.node.reorg(head - (await blockOf(deployed)) + 1)
    await waitFor(async () => (await verifiedContract(stack.spool.reader, deployed.address)) === null, 'the spool to roll the verification back')
    expect(await api(`module=contract&action=getabi&address=${deployed.address}`)).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code not verified' })
  })

  test('two submissions at once: one passes, the other finds it verified meanwhile and answers Already Verified', async () => {
    const { input, deployed } = await deployUniqueCounter(7373)
    const options = { address: deployed.address, input, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION }
    const [first, second] = await Promise.all([forgeVerify(stack.url, options), forgeVerify(stack.url, options)])
    const results = [first.statuses.at(-1), second.statuses.at(-1)].map((answer) => `${answer!.status} ${answer!.result}`).sort()
    expect(results).toEqual(['0 Already Verified', '1 Pass - Verified'])
  })

  test('an address without code: Unable to locate ContractCode at <address>', async () => {
    const empty = '0x000000000000000000000000000000000000dEaD'
    const { submitted } = await forgeVerify(stack.url, { address: empty, input: counterInput, contractName: 'src/Counter.sol:Counter', compilerVersion: SOLCJS_VERSION })
    expect(submitted).toEqual({ status: '0', message: 'NOTOK', result: `Unable to locate ContractCode at ${getAddress(empty)}` })
  })
})

describe('proxies: verifyproxycontract and checkproxyverification', () => {
  test('an EIP-1967 proxy: getsourcecode answers Proxy 1 with the implementation its slot names, and verifyproxycontract records it', async () => {
    const implementation = await deployCounter()
    const proxyInput = standardInput({ 'Proxy.sol': PROXY_SOURCE })
    const proxy = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(proxyInput, 'src/Proxy.sol:Proxy'), { args: [implementation.address] })
    // The contract book reads the proxy from the chain before anyone confirms it.
    const before = (await api(`module=contract&action=getsourcecode&address=${proxy.address}`)).result[0]
    expect(before).toMatchObject({ Proxy: '1', Implementation: implementation.address.toLowerCase(), SourceCode: '' })
    expect(await verifiedProxy(stack.spool.reader, proxy.address)).toBeNull()

    const submitted = await post([
      ['module', 'contract'],
      ['action', 'verifyproxycontract'],
      ['address', proxy.address],
      ['expectedimplementation', implementation.address],
    ])
    expect(submitted.status).toBe('1')
    const status = await waitFor(async () => {
      const answer = await api(`module=contract&action=checkproxyverification&guid=${submitted.result}`)
      return answer.result === 'Pending in queue' ? null : answer
    }, 'the proxy verification to end')
    expect(status).toEqual({
      status: '1',
      message: 'OK',
      result: `The proxy's (${getAddress(proxy.address)}) implementation contract is found at ${getAddress(implementation.address)} and is successfully updated.`,
    })
    expect(await verifiedProxy(stack.spool.reader, proxy.address)).toMatchObject({ address: getAddress(proxy.address), implementation: getAddress(implementation.address) })
    const after = (await api(`module=contract&action=getsourcecode&address=${proxy.address}`)).result[0]
    expect(after).toMatchObject({ Proxy: '1', Implementation: implementation.address.toLowerCase(), SourceCode: '' })
    // A contract job's guid is not a proxy job's, and the other way round.
    expect(await api(`module=contract&action=checkverifystatus&guid=${submitted.result}`)).toEqual({ status: '0', message: 'NOTOK', result: 'Unknown UID' })
  })

  test('an expected implementation other than the slot’s fails, and a contract that is no proxy is not detected; neither is recorded', async () => {
    const implementation = await deployCounter()
    const other = await deployCounter()
    const proxy = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(standardInput({ 'Proxy.sol': PROXY_SOURCE }), 'src/Proxy.sol:Proxy'), { args: [implementation.address] })
    const check = async (fields: Array<[string, string]>) => {
      const submitted = await post([['module', 'contract'], ['action', 'verifyproxycontract'], ...fields])
      expect(submitted.status).toBe('1')
      return waitFor(async () => {
        const answer = await api(`module=contract&action=checkproxyverification&guid=${submitted.result}`)
        return answer.result === 'Pending in queue' ? null : answer
      }, 'the proxy verification to end')
    }
    const mismatch = await check([
      ['address', proxy.address],
      ['expectedimplementation', other.address],
    ])
    expect(mismatch.status).toBe('0')
    expect(mismatch.result).toContain('does not match the expected implementation')
    const plain = await check([['address', other.address]])
    expect(plain).toEqual({ status: '0', message: 'NOTOK', result: 'A corresponding implementation contract was unfortunately not detected for the proxy address.' })
    expect(await verifiedProxy(stack.spool.reader, proxy.address)).toBeNull()
    expect(await verifiedProxy(stack.spool.reader, other.address)).toBeNull()
  })
})

describe("hardhat-verify's requests (module, action, apikey, chainid in the query; the rest in the form; GET polls)", () => {
  test('a contract with immutables verifies', async () => {
    const input = standardInput(['Vault.sol'])
    const deployed = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(input, 'src/Vault.sol:Vault'), { args: [500n] })
    const args = encodeAbiParameters([{ type: 'uint256' }], [500n]).slice(2)
    const { submitted, statuses } = await hardhatVerify(stack.url, {
      address: deployed.address,
      input,
      contractName: 'src/Vault.sol:Vault',
      compilerVersion: SOLCJS_VERSION,
      constructorArguments: args,
    })
    expect(submitted.status).toBe('1')
    expect(statuses.at(-1)).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' })
    const record = (await verifiedContract(stack.spool.reader, deployed.address))!
    expect(Object.keys(record.details.immutableReferences).length).toBe(2)
    expect(record.codeHash).toBe(maskedRuntimeHash(deployed.runtimeCode, { immutableReferences: record.details.immutableReferences }))
  })
})

describe('solidity-single-file and the formats', () => {
  test('a single file with its optimizer fields verifies', async () => {
    const input = standardInput({ 'Counter.sol': fixtureSource('Counter.sol') })
    const single = { ...input, sources: { 'Counter.sol': { content: fixtureSource('Counter.sol') } } }
    const deployed = await deployFixture(stack.node.anvil.rpcUrl, compileFixture(single as typeof input, 'Counter.sol:Counter'))
    const submitted = await post([
      ['module', 'contract'],
      ['action', 'verifysourcecode'],
      ['contractaddress', deployed.address],
      ['sourceCode', fixtureSource('Counter.sol')],
      ['codeformat', 'solidity-single-file'],
      ['contractname', 'Counter'],
      ['compilerversion', SOLCJS_VERSION],
      ['optimizationUsed', '1'],
      ['runs', '200'],
    ])
    expect(submitted.status).toBe('1')
    const status = await waitFor(async () => {
      const answer = await api(`module=contract&action=checkverifystatus&guid=${submitted.result}`)
      return answer.result === 'Pending in queue' ? null : answer
    }, 'the single-file verification to end')
    expect(status).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' })
  })

  test('another codeformat is a NOTOK naming the supported ones', async () => {
    const deployed = await deployCounter()
    const answer = await post([
      ['module', 'contract'],
      ['action', 'verifysourcecode'],
      ['contractaddress', deployed.address],
      ['sourceCode', '{}'],
      ['codeformat', 'vyper-json'],
      ['contractname', 'x'],
      ['compilerversion', SOLCJS_VERSION],
    ])
    expect(answer.status).toBe('0')
    expect(answer.message).toBe('NOTOK')
    expect(answer.result).toContain('solidity-standard-json-input')
    expect(answer.result).toContain('solidity-single-file')
  })
})
