import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Elysia } from 'elysia'
import { createChain } from '../../src/chain/client.ts'
import { parseConfig, type Config } from '../../src/config/load.ts'
import type { ServiceContext } from '../../src/context.ts'
import { listen, type Listening } from '../../src/http/serve.ts'
import { captureLog } from '../../src/log.ts'

export { captureLog }

/**
 * A service context from config text (defaults when empty), logging into memory. The chain is
 * the one the config names; pass a running anvil's URLs in the text to reach a real node.
 */
export function testContext(toml = '', env: Record<string, string> = {}): ServiceContext & { lines: Record<string, unknown>[]; config: Config } {
  const { log, lines } = captureLog()
  // Runtime state goes to a folder of the test's own, never the checkout's data/.
  const data = toml.includes('[data]') ? '' : `[data]\ndir = "${mkdtempSync(join(tmpdir(), 'stack-test-'))}"\n`
  const config = parseConfig(`${data}${toml}`, null, env)
  const chain = createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId, timeoutMs: 1000 })
  return { config, log, lines, chain }
}

/** Opens an app on a free loopback port; `stop` closes it. */
export function serveOnFreePort(app: Elysia<any, any, any, any, any, any, any>, name = 'test'): Listening {
  return listen(app, name, '127.0.0.1', 0)
}
