import { expect, test } from 'bun:test'
import { ConfigError, parseConfig } from '../config/load.ts'
import { predictedAddresses } from '../devnet/deploy.ts'
import { arcadeSettings } from './settings.ts'

test('the defaults: eight rooms, the spec limits, and each room bound to the dev chain bank and its game', () => {
  const settings = arcadeSettings(parseConfig('', null))
  expect(settings.rooms).toHaveLength(8)
  expect(settings.limits).toEqual({
    maxSockets: 256,
    maxSocketsPerAddress: 8,
    maxFrameBytes: 4096,
    messagesPerSecond: 20,
    messageBurst: 40,
    maxBacklogBytes: 512 * 1024,
  })
  expect(settings.readyMaxAgeMs).toBe(5000)
  const addresses = predictedAddresses()
  const games = ['CoinFlip', 'Dice', 'Crash', 'Roulette', 'Slots', 'Plinko', 'Mines', 'Lottery'] as const
  expect(settings.bindings.map(({ room, address, abiName, gameArgument }) => ({ room, address, abiName, gameArgument }))).toEqual(
    settings.rooms.flatMap((room, index) => [
      { room, address: addresses.ArcadeBank, abiName: 'ArcadeBank', gameArgument: 'game' },
      { room, address: addresses[games[index]!], abiName: games[index]!, gameArgument: null },
    ]),
  )
  expect(settings.rooms).toEqual(['coinflip', 'dice', 'crash', 'roulette', 'slots', 'plinko', 'mines', 'lottery'])
})

test('a binding to a room that does not exist stops the start with the key path', () => {
  const config = parseConfig(
    '[arcade]\nrooms = ["dice"]\n[[arcade.contracts]]\nroom = "poker"\naddress = "0x0000000000000000000000000000000000000001"\nabi = "CoinFlip"\n',
    '/etc/stack.toml',
  )
  expect(() => arcadeSettings(config)).toThrow(ConfigError)
  expect(() => arcadeSettings(config)).toThrow('/etc/stack.toml: arcade.contracts[0].room = "poker": expected one of the rooms in arcade.rooms (dice)')
})

test('an unknown ABI stops the start with the key path, the value and the names the arcade knows', () => {
  const config = parseConfig('[[arcade.contracts]]\nroom = "dice"\naddress = "0x0000000000000000000000000000000000000001"\nabi = "Poker"\n', '/etc/stack.toml')
  expect(() => arcadeSettings(config)).toThrow(ConfigError)
  expect(() => arcadeSettings(config)).toThrow('/etc/stack.toml: arcade.contracts[0].abi = "Poker": expected the ABI to decode its logs with, one of "ArcadeBank", "CoinFlip"')
})

test('the schema refuses a bad room name, duplicate rooms and an ABI that is not a name', () => {
  const problems = (text: string) => {
    try {
      parseConfig(text, null)
      return []
    } catch (error) {
      return (error as ConfigError).problems
    }
  }
  expect(problems('[arcade]\nrooms = ["Dice Room"]')[0]).toContain('arcade.rooms[0] = "Dice Room": expected a room name')
  expect(problems('[arcade]\nrooms = ["dice", "dice"]')[0]).toContain('arcade.rooms = ["dice","dice"]: expected a list of 1 to 64 distinct room names')
  expect(problems('[[arcade.contracts]]\nroom = "dice"\naddress = "0x0000000000000000000000000000000000000001"\nabi = 7\n')[0]).toContain(
    'arcade.contracts[0].abi = 7: expected the name of an ABI the arcade decodes its logs with',
  )
})
