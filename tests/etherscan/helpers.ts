import { expect } from 'bun:test'
import type { Chain } from '../../src/chain/client.ts'
import { createEtherscanApp } from '../../src/etherscan/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { startNode, type RunningNode } from '../helpers/devChain.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { rpcProxy } from '../spool/helpers.ts'

export type EtherscanStack = {
  node: RunningNode
  /** The listener's way to the node. */
  chain: Chain
  spool: Spool
  /** The spool's own way to the node: stop it to hold the spool back while the listener still reaches the node. */
  spoolProxy: ReturnType<typeof rpcProxy>
  listener: Listening
  /** The listener's base URL, `http://127.0.0.1:<port>`. */
  url: string
  lines: Record<string, unknown>[]
  stop: () => Promise<void>
}

/**
 * A plain anvil (no dev contracts), a spool following it through a proxy, and the Etherscan
 * listener over both, with the real verification engine (the bundled solc-js). `toml` adds keys
 * (a `[verify]` table); the request limit is raised so a file's requests never reach it.
 */
export async function etherscanStack(toml = ''): Promise<EtherscanStack> {
  const node = await startNode()
  const spoolProxy = rpcProxy(node.anvil.rpcUrl)
  const context = testContext(`[chain]\nrpc = "${node.anvil.rpcUrl}"\nws = "${node.wsUrl}"\n[spool]\npollMs = 100\n[etherscan]\nrateLimitPerMinute = 1000000000\n${toml}`)
  const spoolContext = testContext(`[chain]\nrpc = "${spoolProxy.url}"\nws = "ws://127.0.0.1:9"\n[data]\ndir = "${context.config.dataDir}"\n[spool]\npollMs = 100\n`)
  const spool = await startSpool(spoolContext.config, spoolWiring(spoolContext.config), spoolContext.log)
  const listener = serveOnFreePort(createEtherscanApp(context, spool), 'etherscan')
  return {
    node,
    chain: context.chain,
    spool,
    spoolProxy,
    listener,
    url: listener.url,
    lines: context.lines,
    stop: async () => {
      await listener.stop()
      await spool.stop()
      spoolProxy.stop()
      await node.stop()
    },
  }
}

export type Answer = { status: string; message: string; result: any }

/** An answer of Etherscan's API: HTTP 200, JSON, no-store, and `message` exactly OK or NOTOK unless told. */
export async function etherscanAnswer(response: Response): Promise<Answer> {
  expect(response.status).toBe(200)
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('content-type')).toStartWith('application/json')
  return (await response.json()) as Answer
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** A form body with its fields in the order given, as a client's serializer writes them. */
export const formBody = (fields: Array<[string, string]>) => new URLSearchParams(fields).toString()

export type VerifyOptions = {
  address: string
  input: unknown
  contractName: string
  compilerVersion: string
  /** Hex without 0x. */
  constructorArguments?: string
}

/**
 * What forge 1.7.1 sends for `forge verify-contract <addr> <path:Name> --verifier blockscout
 * --verifier-url <url>/api/ [--constructor-args …] --watch`: the getabi check, the form POST
 * (both spellings of the constructor arguments), then checkverifystatus until it is no longer
 * pending. Gives the submission's answer and every status answer in order.
 */
export async function forgeVerify(base: string, options: VerifyOptions): Promise<{ abiCheck: Answer; submitted: Answer; statuses: Answer[] }> {
  const address = options.address.toLowerCase()
  const abiCheck = await etherscanAnswer(await fetch(`${base}/api?module=contract&action=getabi&address=${address}`))
  const fields: Array<[string, string]> = [
    ['apikey', ''],
    ['module', 'contract'],
    ['action', 'verifysourcecode'],
    ['contractaddress', address],
    ['sourceCode', JSON.stringify(options.input)],
    ['codeformat', 'solidity-standard-json-input'],
    ['contractname', options.contractName],
    ['compilerversion', options.compilerVersion],
  ]
  if (options.constructorArguments) fields.push(['constructorArguements', options.constructorArguments], ['constructorArguments', options.constructorArguments])
  const submitted = await etherscanAnswer(await fetch(`${base}/api`, { method: 'POST', headers: FORM, body: formBody(fields) }))
  const statuses: Answer[] = []
  if (submitted.status === '1') {
    for (;;) {
      const status = await etherscanAnswer(
        await fetch(`${base}/api`, { method: 'POST', headers: FORM, body: formBody([['apikey', ''], ['module', 'contract'], ['action', 'checkverifystatus'], ['guid', submitted.result]]) }),
      )
      statuses.push(status)
      if (status.result !== 'Pending in queue') break
      await Bun.sleep(100)
    }
  }
  return { abiCheck, submitted, statuses }
}

/**
 * What hardhat-verify sends: `module`, `action`, `apikey` and `chainid` in the query and the rest
 * in the form, then a GET of checkverifystatus (every 3 s in hardhat; quicker here) until it is
 * no longer pending.
 */
export async function hardhatVerify(base: string, options: VerifyOptions): Promise<{ submitted: Answer; statuses: Answer[] }> {
  const query = 'module=contract&action=verifysourcecode&apikey=anything&chainid=78270'
  const body = formBody([
    ['contractaddress', options.address],
    ['sourceCode', JSON.stringify(options.input)],
    ['codeformat', 'solidity-standard-json-input'],
    ['contractname', options.contractName],
    ['compilerversion', options.compilerVersion],
    ['constructorArguements', options.constructorArguments ?? ''],
  ])
  const submitted = await etherscanAnswer(await fetch(`${base}/api?${query}`, { method: 'POST', headers: FORM, body }))
  const statuses: Answer[] = []
  if (submitted.status === '1') {
    for (;;) {
      const status = await etherscanAnswer(await fetch(`${base}/api?module=contract&action=checkverifystatus&apikey=anything&chainid=78270&guid=${submitted.result}`))
      statuses.push(status)
      if (status.result !== 'Pending in queue') break
      await Bun.sleep(100)
    }
  }
  return { submitted, statuses }
}
