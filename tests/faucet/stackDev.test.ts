import { expect, test } from 'bun:test'
import { createPublicClient, http, parseEther, type Address } from 'viem'
import { configDir, fromSource, startStack } from '../helpers/stack.ts'
import { freshAddress } from './helpers.ts'

test('stack dev serves a faucet page, and a drip through it funds an address', async () => {
  const { dir, file } = configDir('[dev]\nport = 0\n')
  const stack = await startStack(fromSource, ['dev', '--config', file], { cwd: dir, timeoutMs: 60_000 })
  try {
    const faucet = stack.urls.faucet!
    const page = await fetch(`${faucet}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<script type="module" src="faucet.js"></script>')
    expect((await fetch(`${faucet}/faucet.js`)).status).toBe(200)

    const status = (await (await fetch(`${faucet}/status`)).json()) as Record<string, unknown>
    expect(status).toMatchObject({ ethAmountEth: '1', bxAmountBx: '100', treasuryEthFmt: '1,000 ETH', cooldown: 86_400 })

    // The dev chain mines a block a second: the receipt comes within the three-second window.
    const address: Address = freshAddress()
    const drip = await fetch(`${faucet}/drip`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address }) })
    expect(drip.status).toBe(200)
    const rpc = stack.lines.find((line) => line.msg === 'dev chain started')!.rpc as string
    const client = createPublicClient({ transport: http(rpc) })
    expect(await client.getBalance({ address })).toBe(parseEther('1'))
  } finally {
    expect(await stack.stop('SIGINT')).toBe(0)
  }
}, 60_000)
