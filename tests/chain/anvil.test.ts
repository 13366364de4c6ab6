import { expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { AnvilError, startAnvil } from '../../src/chain/anvil.ts'
import { spawnAnvil } from '../helpers/anvil.ts'
import { devNode } from '../helpers/devChain.ts'

test('anvil starts on a free port with chain id 78270 and stops', async () => {
  const anvil = await spawnAnvil()
  try {
    expect(anvil.port).toBeGreaterThan(0)
    expect(await devNode(anvil.rpcUrl).rpc.call('eth_chainId')).toBe('0x131be')
  } finally {
    await anvil.stop()
  }
  expect(anvil.process.exitCode ?? anvil.process.signalCode).not.toBeNull()
  await expect(fetch(anvil.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow()
})

test("anvil's states past those in memory go into a folder of the stack's, removed when it stops", async () => {
  const foundryStates = join(homedir(), '.foundry/anvil/tmp')
  const listed = () => new Set(existsSync(foundryStates) ? readdirSync(foundryStates) : [])
  const before = listed()
  const anvil = await spawnAnvil()
  try {
    // Past the states anvil holds in memory, so that some are written out.
    await devNode(anvil.rpcUrl).rpc.call('anvil_mine', ['0x400'])
    expect(existsSync(anvil.stateCache)).toBe(true)
    expect([...listed()].filter((name) => !before.has(name))).toEqual([])
  } finally {
    await anvil.stop()
  }
  expect(existsSync(anvil.stateCache)).toBe(false)
})

test('a taken port is a one-line error', async () => {
  const first = await spawnAnvil()
  try {
    const attempt = startAnvil({ port: first.port, startTimeoutMs: 5000 })
    await expect(attempt).rejects.toBeInstanceOf(AnvilError)
    await expect(attempt).rejects.toThrow(/in use|did not start/)
  } finally {
    await first.stop()
  }
})
