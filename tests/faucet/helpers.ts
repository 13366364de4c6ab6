import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { erc20Abi, parseEther, type Address } from 'viem'
import { devAccounts, DEV_OPERATOR_KEY } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { confirm, deployContracts, devClients, type Manifest } from '../../src/devnet/deploy.ts'
import { MANIFEST_FILE } from '../../src/chain/manifest.ts'
import { faucetApp } from '../../src/faucet/app.ts'
import { createFaucet, type Faucet, type FaucetOptions } from '../../src/faucet/faucet.ts'
import type { Listening } from '../../src/http/serve.ts'
import { spawnAnvil, type Anvil } from '../helpers/anvil.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'

export { DEV_OPERATOR_KEY }

/** What the faucet holds in these tests: enough for every drip a test file makes. */
export const FUND_ETH = parseEther('100')
export const FUND_BX = parseEther('100000')

export type FaucetChain = {
  anvil: Anvil
  manifest: Manifest
  clients: ReturnType<typeof devClients>
  faucet: Address
  /** A data folder holding the manifest, and nothing else yet. */
  dataDir: () => string
  rpc: (method: string, params?: unknown[]) => Promise<unknown>
  /** Moves the chain's clock (the contract's cooldown) and mines a block. */
  increaseTime: (seconds: number) => Promise<void>
  setAutomine: (on: boolean) => Promise<void>
  ethBalance: (address: Address) => Promise<bigint>
  bxBalance: (address: Address) => Promise<bigint>
  dripCount: () => Promise<number>
  stop: () => Promise<void>
}

/**
 * A real anvil (mining each transaction as it arrives) with the real contract set deployed by
 * the same code as `stack dev`, the faucet funded by the treasury account.
 */
export async function startFaucetChain(): Promise<FaucetChain> {
  const anvil = await spawnAnvil()
  const clients = devClients(anvil.rpcUrl)
  const manifest = await deployContracts(clients, { faucetDripEth: '1', faucetDripBx: '100' })
  const faucet = manifest.contracts.Faucet
  const treasury = clients.walletFor(devAccounts.treasury)
  await confirm(clients.publicClient, await treasury.sendTransaction({ to: faucet, value: FUND_ETH }), 'funding the faucet')
  await confirm(
    clients.publicClient,
    await treasury.writeContract({ address: manifest.contracts.BX, abi: erc20Abi, functionName: 'transfer', args: [faucet, FUND_BX] }),
    'funding the faucet with BX',
  )
  const rpc = (method: string, params: unknown[] = []) => clients.publicClient.request({ method, params } as never) as Promise<unknown>
  return {
    anvil,
    manifest,
    clients,
    faucet,
    dataDir: () => {
      const dir = mkdtempSync(join(tmpdir(), 'faucet-data-'))
      writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
      return dir
    },
    rpc,
    increaseTime: async (seconds) => {
      await rpc('evm_increaseTime', [seconds])
      await rpc('evm_mine')
    },
    setAutomine: async (on) => {
      await rpc('evm_setAutomine', [on])
    },
    ethBalance: (address) => clients.publicClient.getBalance({ address }),
    bxBalance: (address) => clients.publicClient.readContract({ address: manifest.contracts.BX, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    dripCount: async () => (await clients.publicClient.getContractEvents({ address: faucet, abi: ours.Faucet.abi, eventName: 'Drip', fromBlock: 0n })).length,
    stop: anvil.stop,
  }
}

export type FaucetUnderTest = Listening & {
  faucet: Faucet
  dataDir: string
  lines: Record<string, unknown>[]
  /** POST /drip as the client `client` (sent as X-Forwarded-For; the service trusts one hop). */
  drip: (address: string, client?: string) => Promise<{ status: number; body: Record<string, unknown> }>
  status: (query?: string) => Promise<{ status: number; body: Record<string, unknown> }>
}

let nextClient = 1
/** A client address (from the documentation range) no other request of the run has used. */
export const freshClient = () => `2001:db8::${(nextClient++).toString(16)}`

let nextAccount = 1
/** An account address no other request of the run has used. */
export const freshAddress = (): Address => `0x${(0xfa0000 + nextAccount++).toString(16).padStart(40, '0')}` as Address

/**
 * The faucet app over `chain`, on a free port, trusting one proxy hop so that each test can
 * pose as its own client. `toml` adds to the [faucet] table.
 */
export function startFaucet(
  chain: FaucetChain,
  options: { toml?: string; env?: Record<string, string>; dataDir?: string; rpcUrl?: string } & FaucetOptions = {},
): FaucetUnderTest {
  const dataDir = options.dataDir ?? chain.dataDir()
  const rpcUrl = options.rpcUrl ?? chain.anvil.rpcUrl
  const context = testContext(
    `[chain]\nrpc = "${rpcUrl}"\nws = "${rpcUrl.replace(/^http/, 'ws')}"\n[data]\ndir = "${dataDir}"\n[faucet]\n${options.toml?.includes('trustedProxyHops') ? '' : 'trustedProxyHops = 1\n'}${options.toml ?? ''}`,
    options.env ?? { FAUCET_OPERATOR_KEY: DEV_OPERATOR_KEY },
  )
  const faucet = createFaucet(context, { clock: options.clock, settle: options.settle ?? { intervalMs: 50 }, spool: options.spool })
  const listening = serveOnFreePort(faucetApp(context, faucet), 'faucet')
  const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> })
  return {
    ...listening,
    faucet,
    dataDir,
    lines: context.lines,
    drip: async (address, client = freshClient()) =>
      json(
        await fetch(`${listening.url}/drip`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ address }),
        }),
      ),
    status: async (query = '') => json(await fetch(`${listening.url}/status${query}`)),
  }
}

/** Waits until `check` holds, polling; fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('condition not met in time')
    await Bun.sleep(20)
  }
}

