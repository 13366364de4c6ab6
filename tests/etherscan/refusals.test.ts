import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress } from 'viem'
import { createContractBook } from '../../src/contracts/book.ts'
import { createJobs } from '../../src/etherscan/jobs.ts'
import { contractModule } from '../../src/etherscan/modules/contract.ts'
import { createVerifications } from '../../src/etherscan/verifications.ts'
import { createLogger } from '../../src/log.ts'
import { compilerPlaces } from '../../src/verify/compilers.ts'
import { createVerifier } from '../../src/verify/verifier.ts'
import { compileFixture, deployFixture, SOLCJS_VERSION, standardInput } from '../helpers/verifyFixtures.ts'
import { waitFor } from '../helpers/wait.ts'
import { etherscanAnswer, etherscanStack, formBody, type Answer, type EtherscanStack } from './helpers.ts'

// One compile at a time and none waiting: a second verification while one runs is refused.
let stack: EtherscanStack
beforeAll(async () => {
  stack = await etherscanStack('[verify]\nconcurrency = 1\nqueue = 0\n')
})
afterAll(async () => {
  await stack?.stop()
})

const counterInput = standardInput(['Counter.sol'])
const deployCounter = () => deployFixture(stack.node.anvil.rpcUrl, compileFixture(counterInput, 'src/Counter.sol:Counter'))
const api = (query: string) => fetch(`${stack.url}/api?${query}`).then(etherscanAnswer)

/** forge's verifysourcecode form, with `more` replacing its fields. */
function submit(address: string, more: Record<string, string> = {}): Promise<Answer> {
  const fields: Record<string, string> = {
    module: 'contract',
    action: 'verifysourcecode',
    contractaddress: address.toLowerCase(),
    sourceCode: JSON.stringify(counterInput),
    codeformat: 'solidity-standard-json-input',
    contractname: 'src/Counter.sol:Counter',
    compilerversion: SOLCJS_VERSION,
    ...more,
  }
  return fetch(`${stack.url}/api`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(Object.entries(fields)) }).then(etherscanAnswer)
}

const finalStatus = (guid: string) =>
  waitFor(async () => {
    const answer = await api(`module=contract&action=checkverifystatus&guid=${guid}`)
    return answer.result === 'Pending in queue' ? null : answer
  }, 'the verification to end', 60_000)

describe('bad input gets a clear NOTOK at once and harms nothing', () => {
  test('a sourceCode that is not JSON', async () => {
    const deployed = await deployCounter()
    const answer = await submit(deployed.address, { sourceCode: 'pragma solidity ^0.8.20; contract Counter {}' })
    expect(answer.status).toBe('0')
    expect(answer.message).toBe('NOTOK')
    expect(answer.result).toStartWith('the standard JSON input is not JSON')
  })

  test('a contract name absent from the input, by file or by name', async () => {
    const deployed = await deployCounter()
    const noName = await submit(deployed.address, { contractname: 'src/Counter.sol:Missing' })
    expect(noName).toEqual({ status: '0', message: 'NOTOK', result: 'the contract Missing is not in the input: src/Counter.sol declares no contract Missing' })
    const noFile = await submit(deployed.address, { contractname: 'src/Nowhere.sol:Counter' })
    expect(noFile).toEqual({ status: '0', message: 'NOTOK', result: 'the contract src/Nowhere.sol:Counter is not in the input: it has no source src/Nowhere.sol' })
    const noPath = await submit(deployed.address, { contractname: 'Counter' })
    expect(noPath.status).toBe('0')
    expect(noPath.result).toContain('path:Name')
  })

  test('a compiler version that is not one is refused at once; one the stack has nowhere fails naming where it looked', async () => {
    const deployed = await deployCounter()
    const malformed = await submit(deployed.address, { compilerversion: 'latest' })
    expect(malformed.status).toBe('0')
    expect(malformed.result).toContain('is not a version such as v0.8.37+commit.f401782d')
    const unknown = await submit(deployed.address, { compilerversion: 'v0.8.99+commit.01234567' })
    expect(unknown.status).toBe('1')
    const status = await finalStatus(unknown.result)
    expect(status.status).toBe('0')
    expect(status.result).toStartWith('Fail - Unable to verify. no compiler v0.8.99+commit.01234567 is available (looked in: ')
    expect(status.result).toContain('the bundled solc-js')
  })

  test('a guid nobody issued', async () => {
    expect(await api('module=contract&action=checkverifystatus&guid=00000000-0000-4000-8000-000000000000')).toEqual({ status: '0', message: 'NOTOK', result: 'Unknown UID' })
    expect(await api('module=contract&action=checkverifystatus')).toEqual({ status: '0', message: 'NOTOK', result: 'Unknown UID' })
    expect(await api('module=contract&action=checkproxyverification&guid=nothing')).toEqual({ status: '0', message: 'NOTOK', result: 'Unknown UID' })
  })

  test('getcontractcreation: more than five addresses, a malformed one, none known', async () => {
    const six = Array.from({ length: 6 }, (_, i) => `0x${String(i + 1).padStart(40, '0')}`).join(',')
    expect(await api(`module=contract&action=getcontractcreation&contractaddresses=${six}`)).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Maximum of 5 contract addresses per request' })
    const malformed = await api('module=contract&action=getcontractcreation&contractaddresses=0x1234')
    expect(malformed.status).toBe('0')
    expect(await api(`module=contract&action=getcontractcreation&contractaddresses=0x${'00'.repeat(19)}01`)).toEqual({ status: '0', message: 'No data found', result: null })
  })

  test('getabi and getsourcecode of a malformed address', async () => {
    expect(await api('module=contract&action=getabi&address=0x12')).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Invalid address format' })
    expect((await api('module=contract&action=getsourcecode&address=nothing')).status).toBe('0')
  })
})

describe('the queue and the spool', () => {
  test('while the spool is behind, a job is Pending in queue; a second one finds the queue full; the first passes once the spool catches up', async () => {
    let held = true
    stack.spoolProxy.stop()
    try {
      const first = await deployCounter()
      const second = await deployCounter()
      const submitted = await submit(first.address)
      expect(submitted.status).toBe('1')
      expect(await api(`module=contract&action=checkverifystatus&guid=${submitted.result}`)).toEqual({ status: '0', message: 'NOTOK', result: 'Pending in queue' })
      expect(await submit(second.address)).toEqual({ status: '0', message: 'NOTOK', result: 'the verification queue is full, try again' })
      await Bun.sleep(500)
      expect(await api(`module=contract&action=checkverifystatus&guid=${submitted.result}`)).toEqual({ status: '0', message: 'NOTOK', result: 'Pending in queue' })
      stack.spoolProxy.start()
      held = false
      expect(await finalStatus(submitted.result)).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' })
      // The queue is free again.
      const again = await submit(second.address)
      expect(again.status).toBe('1')
      expect(await finalStatus(again.result)).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' })
    } finally {
      if (held) stack.spoolProxy.start()
    }
  })
})

describe('failures inside a job, through the contract module itself', () => {
  const log = createLogger({ level: 'silent' })
  const emptyHome = mkdtempSync(join(tmpdir(), 'etherscan-home-'))
  const parts = (creationWaitMs: number, timeoutSeconds: number) => {
    const engine = createVerifier({ compilers: null, concurrency: 1, timeoutSeconds, queue: 4, places: compilerPlaces({ home: emptyHome, env: {} }) }, log)
    const jobs = createJobs()
    const verifications = createVerifications({ spool: stack.spool, chain: stack.chain, engine, jobs, log, creationWaitMs })
    const module = contractModule({ reader: stack.spool.reader, book: createContractBook(stack.spool.reader, { chain: stack.chain }), jobs, verifications })
    return { engine, module, verifications }
  }
  const fields = (address: string, more: Record<string, string> = {}) =>
    new Map(Object.entries({ contractaddress: address, sourceCode: JSON.stringify(counterInput), codeformat: 'solidity-standard-json-input', contractname: 'src/Counter.sol:Counter', compilerversion: SOLCJS_VERSION, ...more }))
  const ended = (module: ReturnType<typeof parts>['module'], guid: string) =>
    waitFor(async () => {
      const answer = await module.checkverifystatus!(new Map([['guid', guid]]))
      return answer.result === 'Pending in queue' ? null : answer
    }, 'the job to end', 60_000)

  test('a spool that does not reach the creation within the wait fails the job, saying so', async () => {
    const { engine, module, verifications } = parts(300, 60)
    stack.spoolProxy.stop()
    try {
      const deployed = await deployCounter()
      const submitted = await module.verifysourcecode!(fields(deployed.address))
      expect(submitted.status).toBe('1')
      const status = await ended(module, submitted.result as string)
      expect(status.status).toBe('0')
      expect(status.result).toStartWith(`Fail - Unable to verify. the spool has not reached the creation of ${getAddress(deployed.address)} yet`)
    } finally {
      stack.spoolProxy.start()
      engine.stop()
      verifications.close()
    }
  })

  test('a compile past its time limit fails the job with the limit', async () => {
    const { engine, module, verifications } = parts(30_000, 0.05)
    try {
      const deployed = await deployCounter()
      const submitted = await module.verifysourcecode!(fields(deployed.address))
      const status = await ended(module, submitted.result as string)
      expect(status).toEqual({ status: '0', message: 'NOTOK', result: 'Fail - Unable to verify. the compile took longer than 0.05 s' })
    } finally {
      engine.stop()
      verifications.close()
    }
  })
})
