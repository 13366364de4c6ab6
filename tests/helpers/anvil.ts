import { afterAll, beforeAll } from 'bun:test'
import { startAnvil, type Anvil, type AnvilOptions } from '../../src/chain/anvil.ts'

export type { Anvil }

/** The dev accounts of anvil's default mnemonic ("test test ... junk"), documented by Foundry. */
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
] as const

/** Starts a real anvil (chain 78270) on a free loopback port. */
export function spawnAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  return startAnvil({ port: 0, ...options })
}

/**
 * Runs one anvil for the enclosing test file: started before the first test, stopped after
 * the last. Read `.current` inside tests.
 */
export function useAnvil(options: AnvilOptions = {}) {
  const handle: { current: Anvil } = { current: undefined as unknown as Anvil }
  beforeAll(async () => {
    handle.current = await spawnAnvil(options)
  })
  afterAll(async () => {
    await handle.current?.stop()
  })
  return handle
}
