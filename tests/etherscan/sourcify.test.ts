import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodeAbiParameters, getAddress } from 'viem'
import { verifiedContract } from '../../src/spool/verified.ts'
import { compileFixture, deployFixture, fixtureSource, SOLCJS_VERSION, standardInput } from '../helpers/verifyFixtures.ts'
import { waitFor } from '../helpers/wait.ts'
import { etherscanAnswer, etherscanStack, type EtherscanStack } from './helpers.ts'

let stack: EtherscanStack
/** What forge's `--verifier-url` is for these routes; forge appends `v2/...` to it. */
let base: string
beforeAll(async () => {
  stack = await etherscanStack()
  base = `${stack.url}/sourcify/`
})
afterAll(async () => {
  await stack?.stop()
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** forge sends the long version without Etherscan's `v`. */
const COMPILER = SOLCJS_VERSION.slice(1)
const counterInput = standardInput(['Counter.sol'])
const deployCounter = () => deployFixture(stack.node.anvil.rpcUrl, compileFixture(counterInput, 'src/Counter.sol:Counter'))

async function sourcify(response: Response, status: number): Promise<any> {
  expect(response.status).toBe(status)
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('content-type')).toStartWith('application/json')
  return response.json()
}

/** Sourcify's error body: its custom code, a message and an id of its own. */
async function sourcifyError(response: Response, status: number, customCode: string): Promise<{ customCode: string; message: string; errorId: string }> {
  const body = await sourcify(response, status)
  expect(body.customCode).toBe(customCode)
  expect(typeof body.message).toBe('string')
  expect(body.errorId).toMatch(UUID)
  return body
}

/** forge's POST /v2/verify/{chainId}/{address}: JSON, the address checksummed, no creation hash unless given. */
const submit = (address: string, body: Record<string, unknown>, chainId = 78270) =>
  fetch(`${base}v2/verify/${chainId}/${getAddress(address)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

const request = (input: unknown, contractIdentifier: string, more: Record<string, unknown> = {}) => ({ stdJsonInput: input, compilerVersion: COMPILER, contractIdentifier, ...more })

/** forge's poll of GET /v2/verify/{verificationId} until the job is completed. */
const completed = (verificationId: string) =>
  waitFor(
    async () => {
      const job = await sourcify(await fetch(`${base}v2/verify/${verificationId}`), 200)
      return job.isJobCompleted ? job : null
    },
    'the Sourcify job to complete',
    60_000,
  )

describe("Sourcify's API v2 with forge's requests (--verifier sourcify --verifier-url …/sourcify/)", () => {
  test('lookup, verify, poll, lookup again: 404 with nulls, 202 with a verificationId, an exact match, then 200 and a 409 for a second try', async () => {
    const deployed = await deployCounter()
    const lookup = await sourcify(await fetch(`${base}v2/contract/78270/${getAddress(deployed.address)}`), 404)
    expect(lookup).toMatchObject({ match: null, creationMatch: null, runtimeMatch: null, chainId: '78270', address: getAddress(deployed.address), customCode: 'not_found' })

    const accepted = await sourcify(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter')), 202)
    expect(Object.keys(accepted)).toEqual(['verificationId'])
    expect(accepted.verificationId).toMatch(UUID)

    const job = await completed(accepted.verificationId)
    expect(job).toMatchObject({
      isJobCompleted: true,
      verificationId: accepted.verificationId,
      contract: { match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match', chainId: '78270', address: getAddress(deployed.address) },
    })
    expect(job.error).toBeUndefined()
    expect(Date.parse(job.jobStartTime)).toBeLessThanOrEqual(Date.parse(job.jobFinishTime))
    const record = (await verifiedContract(stack.spool.reader, deployed.address))!
    expect(record.origin).toBe('sourcify')
    expect(job.contract.matchId).toBe(String(record.id))
    expect(job.contract.verifiedAt).toBe(new Date(record.verifiedAt).toISOString())

    const found = await sourcify(await fetch(`${base}v2/contract/78270/${deployed.address.toLowerCase()}`), 200)
    expect(found).toEqual({
      match: 'exact_match',
      creationMatch: 'exact_match',
      runtimeMatch: 'exact_match',
      chainId: '78270',
      address: getAddress(deployed.address),
      verifiedAt: job.contract.verifiedAt,
      matchId: String(record.id),
    })

    const again = await sourcifyError(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter')), 409, 'already_verified')
    expect(again.message).toContain(getAddress(deployed.address))
  })

  test('one job list for both APIs: a verificationId is a guid of checkverifystatus, and the contract a verified one of getabi', async () => {
    const deployed = await deployCounter()
    const accepted = await sourcify(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter')), 202)
    await completed(accepted.verificationId)
    const status = await etherscanAnswer(await fetch(`${stack.url}/api?module=contract&action=checkverifystatus&guid=${accepted.verificationId}`))
    expect(status).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' })
    expect((await etherscanAnswer(await fetch(`${stack.url}/api?module=contract&action=getabi&address=${deployed.address}`))).status).toBe('1')
  })

  test('with creationTransactionHash and constructor arguments; a hash of another transaction fails the job', async () => {
    const input = standardInput(['Greeter.sol'])
    const compiled = compileFixture(input, 'src/Greeter.sol:Greeter')
    const deployed = await deployFixture(stack.node.anvil.rpcUrl, compiled, { args: ['from sourcify', 3n] })
    const other = await deployFixture(stack.node.anvil.rpcUrl, compiled, { args: ['another', 4n] })

    const wrong = await sourcify(await submit(other.address, request(input, 'src/Greeter.sol:Greeter', { creationTransactionHash: deployed.txHash })), 202)
    const failed = await completed(wrong.verificationId)
    expect(failed.contract.match).toBeNull()
    expect(failed.error.customCode).toBe('cannot_fetch_bytecode')
    expect(failed.error.errorId).toMatch(UUID)

    const accepted = await sourcify(await submit(deployed.address, request(input, 'src/Greeter.sol:Greeter', { creationTransactionHash: deployed.txHash })), 202)
    const job = await completed(accepted.verificationId)
    expect(job.contract.match).toBe('exact_match')
    const args = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['from sourcify', 3n]).slice(2)
    expect((await verifiedContract(stack.spool.reader, deployed.address))!.details.constructorArguments).toBe(args)
  })

  test('a changed source completes the job with no match and an error in Sourcify’s shape', async () => {
    const deployed = await deployCounter()
    const changed = standardInput({ 'Counter.sol': fixtureSource('Counter.sol').replace('1000', '3000') })
    const accepted = await sourcify(await submit(deployed.address, request(changed, 'src/Counter.sol:Counter')), 202)
    const job = await completed(accepted.verificationId)
    expect(job.contract).toMatchObject({ match: null, creationMatch: null, runtimeMatch: null, chainId: '78270' })
    expect(job.error.customCode).toBe('no_match')
    expect(job.error.message.length).toBeGreaterThan(0)
    await sourcify(await fetch(`${base}v2/contract/78270/${deployed.address}`), 404)
  })

  test('a second verification of an address while one runs is 429 duplicate_verification_request', async () => {
    let held = true
    stack.spoolProxy.stop()
    try {
      const deployed = await deployCounter()
      const accepted = await sourcify(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter')), 202)
      const pending = await sourcify(await fetch(`${base}v2/verify/${accepted.verificationId}`), 200)
      expect(pending).toMatchObject({ isJobCompleted: false, contract: { match: null, creationMatch: null, runtimeMatch: null, address: getAddress(deployed.address) } })
      expect(pending.jobFinishTime).toBeUndefined()
      await sourcifyError(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter')), 429, 'duplicate_verification_request')
      stack.spoolProxy.start()
      held = false
      expect((await completed(accepted.verificationId)).contract.match).toBe('exact_match')
    } finally {
      if (held) stack.spoolProxy.start()
    }
  })
})

describe("Sourcify's errors, with its statuses and {customCode, message, errorId}", () => {
  test('another chain id is unsupported_chain (400), for verification and lookup alike', async () => {
    const deployed = await deployCounter()
    await sourcifyError(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter'), 1), 400, 'unsupported_chain')
    await sourcifyError(await fetch(`${base}v2/contract/1/${deployed.address}`), 400, 'unsupported_chain')
  })

  test('a malformed address, body, input or identifier is 400', async () => {
    const deployed = await deployCounter()
    await sourcifyError(await fetch(`${base}v2/contract/78270/0x1234`), 400, 'invalid_parameter')
    const notJson = await fetch(`${base}v2/verify/78270/${deployed.address}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"stdJsonInput":' })
    await sourcifyError(notJson, 400, 'invalid_json')
    await sourcifyError(await submit(deployed.address, { compilerVersion: COMPILER, contractIdentifier: 'src/Counter.sol:Counter' }), 400, 'invalid_parameter')
    await sourcifyError(await submit(deployed.address, request(counterInput, 'Counter')), 400, 'invalid_parameter')
    await sourcifyError(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Absent')), 400, 'invalid_parameter')
    await sourcifyError(await submit(deployed.address, request({ language: 'Solidity', sources: { 'a.sol': {} } }, 'a.sol:A')), 400, 'invalid_parameter')
    await sourcifyError(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter', { compilerVersion: 'latest' })), 400, 'invalid_parameter')
    await sourcifyError(await submit(deployed.address, request(counterInput, 'src/Counter.sol:Counter', { creationTransactionHash: '0x12' })), 400, 'invalid_parameter')
  })

  test('an address without code is 404 contract_not_deployed; a job nobody started 404 job_not_found; an unknown route 404 route_not_found', async () => {
    await sourcifyError(await submit('0x000000000000000000000000000000000000bEEF', request(counterInput, 'src/Counter.sol:Counter')), 404, 'contract_not_deployed')
    await sourcifyError(await fetch(`${base}v2/verify/00000000-0000-4000-8000-000000000000`), 404, 'job_not_found')
    await sourcifyError(await fetch(`${base}v2/nothing/here`), 404, 'route_not_found')
  })

  test('a body past the listener’s cap is 413 with Sourcify’s keys beside the error', async () => {
    const big = new Uint8Array(16 * 1024 * 1024 + 1).fill(0x20)
    const response = await fetch(`${base}v2/verify/78270/0x000000000000000000000000000000000000bEEF`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big })
    const body = await sourcifyError(response, 413, 'payload_too_large')
    expect((body as unknown as { error: string }).error).toStartWith('payload too large')
  })
})
