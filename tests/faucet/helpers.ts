import { afterAll, beforeAll } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { erc20Abi, parseEther, type Address } from 'viem'
import { MANIFEST_FILE } from '../../src/chain/manifest.ts'
import { devAccounts, DEV_OPERATOR_KEY } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { faucetApp } from '../../src/faucet/app.ts'
import { createFaucet, type Faucet, type FaucetOptions } from '../../src/faucet/faucet.ts'
import type { Listening } from '../../src/http/serve.ts'
import { startDevChain, type DevChain, type DevChainOptions } from '../helpers/devChain.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'

export { DEV_OPERATOR_KEY }

/** What the faucet holds in these tests: enough for every drip a test file makes. */
export const FUND_ETH = parseEther('100')
export const FUND_BX = parseEther('100000')

export type FaucetChain = DevChain & {
  faucet: Address
  /** A data folder holding the manifest, and nothing else yet. */
  dataDir: () => string
  ethBalance: (address: Address) => Promise<bigint>
  bxBalance: (address: Address) => Promise<bigint>
  dripCount: () => Promise<number>
}

/**
 * The dev chain without the demo activity (anvil mining each transaction as it arrives), the
 * faucet funded by the treasury account; `drips` sets the faucet contract's amounts.
 */
export async function startFaucetChain(drips: DevChainOptions['drips'] = {}): Promise<FaucetChain> {
  const chain = await startDevChain({ seed: false, drips })
  const faucet = chain.manifest.contracts.Faucet
  const { BX } = chain.manifest.contracts
  await chain.send([{ from: devAccounts.treasury.address, to: faucet, value: FUND_ETH }])
  await chain.write(devAccounts.treasury, BX, erc20Abi, 'transfer', [faucet, FUND_BX])
  const { publicClient } = chain.clients
  return {
    ...chain,
    faucet,
    dataDir: () => {
      const dir = mkdtempSync(join(tmpdir(), 'faucet-data-'))
      writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(chain.manifest, null, 2)}\n`)
      return dir
    },
    ethBalance: (address) => publicClient.getBalance({ address }),
    bxBalance: (address) => chain.read<bigint>(BX, erc20Abi, 'balanceOf', [address]),
    dripCount: async () => (await publicClient.getContractEvents({ address: faucet, abi: ours.Faucet.abi, eventName: 'Drip', fromBlock: 0n })).length,
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
 * A faucet chain and a faucet over it for the tests of one file: started before them (handed to
 * `started`), stopped after them.
 */
export function faucetForFile(started: (running: { chain: FaucetChain; service: FaucetUnderTest }) => void, options: Parameters<typeof startFaucet>[1] = {}): void {
  let chain: FaucetChain | undefined
  let service: FaucetUnderTest | undefined
  beforeAll(async () => {
    chain = await startFaucetChain()
    service = startFaucet(chain, options)
    started({ chain, service })
  })
  afterAll(async () => {
    await service?.stop()
    await chain?.stop()
  })
}

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
