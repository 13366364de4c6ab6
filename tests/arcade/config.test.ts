import { expect, test } from 'bun:test'
import { configDir, fromSource, runOnce } from '../helpers/stack.ts'

// The config takes any ABI name; the arcade checks the names it knows. The start must still
// refuse an unknown one as a config error, in the config's words, before anything starts: no
// spool opened, no dev chain deployed, no port.
for (const command of ['start', 'dev']) {
  test(`stack ${command} with an ABI the arcade does not know exits 1 before anything starts`, async () => {
    const { file } = configDir('[dev]\nport = 0\n[arcade]\nport = 0\n[[arcade.contracts]]\nroom = "dice"\naddress = "0x0000000000000000000000000000000000000001"\nabi = "Poker"\n')
    const { stderr, stdout, code } = await runOnce(fromSource, [command, '--config', file])
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toEqual([
      'stack: the config is not valid, nothing was started',
      `  ${file}: arcade.contracts[0].abi = "Poker": expected the ABI to decode its logs with, one of "ArcadeBank", "CoinFlip", "Dice", "Crash", "Roulette", "Slots", "Plinko", "Mines", "Lottery"`,
    ])
    // Nothing was logged because nothing began: no spool, no dev chain, no listener.
    expect(stdout).toBe('')
  })
}
