import { expect, test } from 'bun:test'
import { configDir, fromSource, runOnce } from '../helpers/stack.ts'

// The config takes any ABI name; the arcade checks it when the services are built. The start must
// still refuse it as a config error, early and in the config's words, with no port opened.
test('stack start with an ABI the arcade does not know exits 1 naming the key, the value and the known names', async () => {
  const { file } = configDir('[arcade]\nport = 0\n[[arcade.contracts]]\nroom = "dice"\naddress = "0x0000000000000000000000000000000000000001"\nabi = "Poker"\n')
  const { stderr, stdout, code } = await runOnce(fromSource, ['start', '--config', file])
  expect(code).toBe(1)
  expect(stderr.trim().split('\n')).toEqual([
    'stack: the config is not valid, nothing was started',
    `  ${file}: arcade.contracts[0].abi = "Poker": expected the ABI to decode its logs with, one of "ArcadeBank", "CoinFlip"`,
  ])
  expect(stdout).not.toContain('"listening"')
})
