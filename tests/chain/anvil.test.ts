import { expect, test } from 'bun:test'
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
