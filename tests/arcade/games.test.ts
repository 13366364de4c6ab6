import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parseEther, zeroAddress, type Abi, type Account, type Address, type TransactionReceipt } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { ARCADE_GAMES } from '../../src/devnet/deploy.ts'
import { decodeEvents, startDevChain, type DevChain } from '../helpers/devChain.ts'
import { coinFlip, crash, dice, lottery, mines, plinko, roulette, seedOf, skimOf, slots } from './helpers/tables.ts'

// Every game on a real chain, its payouts checked against the tables of docs/arcade.md (written again
// in helpers/tables.ts): what the pure functions answer for every input that matters, and what
// real bets settled from real block hashes credit to the player's bank balance. Every stake sends
// its skim to the fee router.

type Game = 'CoinFlip' | (typeof ARCADE_GAMES)[number]
type Args = Record<string, any>

let chain: DevChain
const { alice, bob, carol, treasury } = devAccounts

beforeAll(async () => {
  chain = await startDevChain({ seed: false })
  for (const player of [alice, bob, carol]) await chain.write(player, c().ArcadeBank, ours.ArcadeBank.abi, 'deposit', [], { value: parseEther('50') })
})
afterAll(() => chain?.stop())

const c = () => chain.manifest.contracts
const view = <T>(game: Game | 'ArcadeBank', functionName: string, args: readonly unknown[] = []) => chain.read<T>(c()[game], ours[game].abi, functionName, args)
const bankBalance = (player: Account) => view<bigint>('ArcadeBank', 'balanceOf', [player.address])
const events = (abi: Abi, receipt: TransactionReceipt, name?: string) => decodeEvents<Args>(abi, receipt.logs, name).map((event) => event.args)

/** A bet placed by `player` and settled from the next block by carol: the seed it was settled with, the outcome event and what it credited. */
async function play(game: Exclude<Game, 'Lottery'>, player: Account, functionName: string, choice: readonly unknown[], stakeEth: string) {
  const stake = parseEther(stakeEth)
  const placed = await chain.write(player, c()[game], ours[game].abi, functionName, [...choice, stake])
  const [placedEvent] = events(ours[game].abi, placed)
  const betId = placedEvent!.betId as bigint
  const before = await bankBalance(player)
  const settled = await chain.write(carol, c()[game], ours[game].abi, 'settle', [betId])
  const [outcome] = events(ours[game].abi, settled)
  const [bankSettled] = events(ours.ArcadeBank.abi, settled, 'Settled')
  return { stake, betId, placed: placedEvent!, seed: seedOf(placed.blockHash, betId), outcome: outcome!, payout: bankSettled!.payout as bigint, credited: (await bankBalance(player)) - before, placedIn: placed }
}

/** Calls `fn` for every item, a few at a time. */
async function each<T>(items: T[], fn: (item: T) => Promise<void>) {
  for (let index = 0; index < items.length; index += 64) await Promise.all(items.slice(index, index + 64).map(fn))
}

/** The revert's error name, or null when the call goes through. */
async function revertOf(game: Game, functionName: string, args: readonly unknown[], from: Account = alice): Promise<string | null> {
  try {
    await chain.clients.publicClient.simulateContract({ address: c()[game], abi: ours[game].abi, functionName, args, account: from })
    return null
  } catch (error) {
    return (error as { cause?: { data?: { errorName?: string } } }).cause?.data?.errorName ?? String(error)
  }
}

describe('coin flip', () => {
  test('a win pays twice the stake less 1 %, on the coin the block hash gives', async () => {
    for (const [heads, stake] of [[true, '1'], [false, '0.4'], [true, '0.02'], [false, '3']] as const) {
      const bet = await play('CoinFlip', alice, 'place', [heads], stake)
      const landedHeads = coinFlip.landedHeads(bet.seed)
      expect(bet.outcome.landedHeads).toBe(landedHeads)
      const payout = landedHeads === heads ? coinFlip.payoutIfWon(bet.stake) : 0n
      expect(bet.outcome.payout).toBe(payout)
      expect(bet.credited).toBe(payout)
    }
  })
})

describe('dice', () => {
  test('the payout of every roll-under from 2 to 99 is the stake times 99 / (rollUnder - 1); 1 and 100 are refused', async () => {
    const stake = parseEther('0.37')
    await each([...Array(98).keys()].map((index) => index + 2), async (rollUnder) => {
      expect(await view<bigint>('Dice', 'payoutFor', [stake, rollUnder])).toBe(dice.payoutIfWon(stake, rollUnder))
    })
    expect(dice.payoutIfWon(parseEther('1'), 51)).toBe(parseEther('1.98'))
    expect(await revertOf('Dice', 'place', [1, stake])).toBe('RollUnderOutOfRange')
    expect(await revertOf('Dice', 'place', [100, stake])).toBe('RollUnderOutOfRange')
    expect(await revertOf('Dice', 'place', [50, parseEther('0.0001')])).toBe('StakeOutOfRange')
  })

  test('real rolls pay when the roll comes in under the number', async () => {
    for (const [rollUnder, stake] of [[51, '1'], [10, '0.2'], [99, '0.5'], [80, '0.3']] as const) {
      const bet = await play('Dice', bob, 'place', [rollUnder], stake)
      const roll = dice.roll(bet.seed)
      expect(bet.outcome.roll).toBe(roll)
      expect(bet.placed.payoutIfWon).toBe(dice.payoutIfWon(bet.stake, rollUnder))
      const payout = roll < rollUnder ? dice.payoutIfWon(bet.stake, rollUnder) : 0n
      expect([bet.outcome.payout, bet.credited]).toEqual([payout, payout])
    }
  })
})

describe('crash', () => {
  test('the crash point is 0.99 / (1 - u) in hundredths, capped at 10000x; a cash-out pays the stake times its multiplier', async () => {
    const seeds = [0n, 1n, 0xffffffffn, 0xfffffffen, 0x80000000n, 2n ** 255n + 12345n, 0xdeadbeefn << 64n, 0x1234abcdn]
    for (const seed of seeds) expect(await view<bigint>('Crash', 'crashPointOf', [seed])).toBe(crash.point(seed))
    expect(crash.point(0n)).toBe(99n) // crashes at once
    expect(crash.point(0xffffffffn)).toBe(1_000_000n)
    expect(await view<bigint>('Crash', 'payoutFor', [parseEther('0.5'), 250])).toBe(parseEther('1.25'))
    expect(await revertOf('Crash', 'place', [100, parseEther('0.1')])).toBe('CashOutOutOfRange')
    expect(await revertOf('Crash', 'place', [10_001, parseEther('0.1')])).toBe('CashOutOutOfRange')
  })

  test('real rounds pay when the crash point reaches the cash-out', async () => {
    for (const [cashOut, stake] of [[101, '0.5'], [200, '0.3'], [150, '0.2'], [10_000, '0.01']] as const) {
      const bet = await play('Crash', alice, 'place', [cashOut], stake)
      const point = crash.point(bet.seed)
      expect(bet.outcome.crashX100).toBe(point)
      const payout = point >= BigInt(cashOut) ? crash.payoutIfWon(bet.stake, cashOut) : 0n
      expect([bet.outcome.payout, bet.credited]).toEqual([payout, payout])
    }
  })
})

describe('roulette', () => {
  test('every bet wins on exactly its pockets and returns 36x, 2x or 3x; anything else is refused', async () => {
    const stake = parseEther('0.1')
    await each(
      roulette.bets.flatMap((bet) => [...Array(37).keys()].map((pocket) => ({ bet, pocket }))),
      async ({ bet, pocket }) => {
        expect([bet.kind, bet.number, pocket, await view<boolean>('Roulette', 'wins', [bet.kind, bet.number, pocket])]).toEqual([bet.kind, bet.number, pocket, bet.pockets.includes(pocket)])
      },
    )
    for (const bet of roulette.bets) expect(await view<bigint>('Roulette', 'payoutFor', [stake, bet.kind, bet.number])).toBe(stake * bet.returns)
    // A 1/37 edge on every bet: what wins, times what it returns, is 36 of 37.
    for (const bet of roulette.bets) expect(BigInt(bet.pockets.length) * bet.returns).toBe(36n)
    for (const [kind, number] of [[0, 37], [1, 5], [7, 0], [8, 4], [9, 0]]) expect(await revertOf('Roulette', 'place', [kind, number, stake])).toBe('InvalidBet')
  })

  test('real spins pay on the pocket the block hash gives', async () => {
    for (const [kind, number, stake] of [[1, 0, '0.5'], [0, 17, '0.05'], [7, 2, '0.2'], [8, 3, '0.2'], [4, 0, '0.1']] as const) {
      const bet = await play('Roulette', bob, 'place', [kind, number], stake)
      const pocket = roulette.pocket(bet.seed)
      expect(bet.outcome.pocket).toBe(pocket)
      const { pockets, returns } = roulette.bet(kind, number)
      const payout = pockets.includes(pocket) ? bet.stake * returns : 0n
      expect([bet.outcome.payout, bet.credited]).toEqual([payout, payout])
    }
  })
})

describe('slots', () => {
  test('the reels and the pay table: every line of three symbols, and 96.09 % returned on average', async () => {
    await each([...Array(32).keys()], async (stop) => expect(await view<number>('Slots', 'symbolAt', [stop])).toBe(slots.symbolAt(stop)))
    const lines = [...Array(216).keys()].map((index) => [Math.floor(index / 36), Math.floor(index / 6) % 6, index % 6])
    let returned = 0n
    await each(lines, async (line) => {
      const multiplier = await view<bigint>('Slots', 'multiplierX100', [line])
      expect([line, multiplier]).toEqual([line, BigInt(slots.multiplierX100(line))])
      returned += multiplier * BigInt(line.reduce((odds, symbol) => odds * slots.stopsPerSymbol[symbol]!, 1))
    })
    // Out of 32^3 equally likely stops, in hundredths of the stake.
    expect(returned).toBe(3_148_600n)
    expect(Number(returned) / 32 ** 3 / 100).toBeCloseTo(0.9609, 4)
  })

  test('real spins pay what their line returns', async () => {
    for (const stake of ['0.05', '0.1', '0.02']) {
      const bet = await play('Slots', carol, 'spin', [], stake)
      const reels = slots.reels(bet.seed)
      expect(bet.outcome.reels).toEqual(reels)
      const payout = (bet.stake * BigInt(slots.multiplierX100(reels))) / 100n
      expect([bet.outcome.payout, bet.credited]).toEqual([payout, payout])
    }
    expect(await revertOf('Slots', 'spin', [parseEther('0.2')])).toBe('StakeOutOfRange')
  })
})

describe('plinko', () => {
  test('the ball lands in the bucket its path counts, and each risk pays its table', async () => {
    await each([...Array(256).keys()], async (path) => expect(await view<number>('Plinko', 'bucketOf', [path])).toBe(plinko.bucket(path)))
    for (const [risk, table] of plinko.tablesX100.entries()) {
      const answers = await Promise.all(table.map((_, bucket) => view<bigint>('Plinko', 'multiplierX100', [risk, bucket])))
      expect(answers).toEqual(table.map(BigInt))
    }
    expect(await revertOf('Plinko', 'drop', [2, parseEther('0.1')])).toBe('UnknownRisk')
  })

  test('real drops pay the bucket of the path the block hash gives', async () => {
    for (const [risk, stake] of [[0, '0.2'], [1, '0.1'], [0, '0.05'], [1, '0.3']] as const) {
      const bet = await play('Plinko', alice, 'drop', [risk], stake)
      const path = plinko.path(bet.seed)
      const bucket = plinko.bucket(path)
      expect([bet.outcome.path, bet.outcome.bucket]).toEqual([path, bucket])
      const payout = (bet.stake * BigInt(plinko.tablesX100[risk]![bucket]!)) / 100n
      expect([bet.outcome.payout, bet.credited]).toEqual([payout, payout])
    }
  })
})

describe('mines', () => {
  test('a win returns 0.99 x C(25, k) / C(25 - m, k) for every board; boards that cannot be played are refused', async () => {
    const stake = parseEther('0.01')
    const boards = [...Array(24).keys()].flatMap((index) => [...Array(24 - index).keys()].map((picked) => ({ count: index + 1, picked: picked + 1 })))
    expect(boards).toHaveLength(300)
    await each(boards, async ({ count, picked }) => {
      // The lowest `picked` tiles; which tiles does not change the odds.
      const picks = 2 ** picked - 1
      expect([count, picked, await view<bigint>('Mines', 'payoutFor', [stake, count, picks])]).toEqual([count, picked, mines.payoutIfWon(stake, count, picked)])
    })
    expect(mines.payoutIfWon(parseEther('1'), 1, 1)).toBe(parseEther('1.03125'))
    for (const [count, picks] of [[0, 1], [25, 1], [3, 0], [3, 2 ** 25], [24, 3]]) expect(await revertOf('Mines', 'place', [count, picks, stake])).toBe('InvalidBoard')
  })

  test('the mines are a shuffle of the tiles drawn from the seed', async () => {
    for (const [seed, count] of [[0n, 1], [2n ** 200n + 77n, 3], [123456789n, 24], [2n ** 256n - 1n, 12]] as const) {
      const mask = await view<number>('Mines', 'minesOf', [seed, count])
      expect(mask).toBe(mines.laid(seed, count))
      expect(mask.toString(2).replaceAll('0', '')).toHaveLength(count)
    }
  })

  test('real boards pay when no picked tile hides a mine', async () => {
    for (const [count, picks, stake] of [[1, 0b1, '0.2'], [3, 0b1_0000_0100_0001, '0.1'], [5, 0b111, '0.1'], [10, 0b1, '0.05']] as const) {
      const bet = await play('Mines', bob, 'place', [count, picks], stake)
      const laid = mines.laid(bet.seed, count)
      expect(bet.outcome.minesMask).toBe(laid)
      const picked = picks.toString(2).replaceAll('0', '').length
      const payout = (laid & picks) === 0 ? mines.payoutIfWon(bet.stake, count, picked) : 0n
      expect([bet.outcome.payout, bet.credited]).toEqual([payout, payout])
    }
  })
})

describe('lottery', () => {
  const buy = (player: Account, tickets: number) => chain.write(player, c().Lottery, ours.Lottery.abi, 'buy', [tickets])
  const mineTo = async (block: bigint) => {
    const head = BigInt(await chain.head())
    if (head < block) await chain.mine(Number(block - head))
  }

  test('a round: tickets until its last block, then the drawn ticket wins 98 % of the pot', async () => {
    const round = await view<bigint>('Lottery', 'round')
    const balances = await Promise.all([alice, bob, carol].map(bankBalance))
    const opened = await buy(alice, 5)
    const [first] = events(ours.Lottery.abi, opened, 'TicketsBought')
    const endsAt = first!.endsAt as bigint
    expect(endsAt).toBe(opened.blockNumber + BigInt(lottery.roundBlocks))
    await buy(bob, 3)
    await buy(carol, 2)
    expect(await revertOf('Lottery', 'draw', [])).toBe('TooEarly')
    // One block past the end, so that a buy simulated on top of the head falls after it too.
    await mineTo(endsAt + 1n)
    const closing = await chain.clients.publicClient.getBlock({ blockNumber: endsAt })
    expect(await revertOf('Lottery', 'buy', [1])).toBe('RoundOver')
    const [drawn] = events(ours.Lottery.abi, await chain.write(treasury, c().Lottery, ours.Lottery.abi, 'draw'), 'LotteryDrawn')

    const winning = seedOf(closing.hash, round) % 10n
    const winner = winning < 5n ? alice : winning < 8n ? bob : carol
    const prize = lottery.prize(10n)
    expect(prize).toBe(parseEther('0.098'))
    expect(drawn).toEqual({ round, winner: winner.address, winningTicket: winning, tickets: 10n, pot: parseEther('0.1'), prize })
    const after = await Promise.all([alice, bob, carol].map(bankBalance))
    const paid = { [alice.address]: parseEther('0.05'), [bob.address]: parseEther('0.03'), [carol.address]: parseEther('0.02') }
    for (const [index, player] of [alice, bob, carol].entries()) {
      expect(after[index]! - balances[index]!).toBe((player === winner ? prize : 0n) - paid[player.address]!)
    }
    expect(await view<bigint>('Lottery', 'round')).toBe(round + 1n)
  })

  test('a round nobody draws within 256 blocks of its end is refunded', async () => {
    const before = await bankBalance(bob)
    const [bought] = events(ours.Lottery.abi, await buy(bob, 4), 'TicketsBought')
    await mineTo((bought!.endsAt as bigint) + 300n)
    const [refunded] = events(ours.Lottery.abi, await chain.write(carol, c().Lottery, ours.Lottery.abi, 'draw'), 'LotteryRefunded')
    expect(refunded).toMatchObject({ entries: 1n, pot: parseEther('0.04') })
    expect(await bankBalance(bob)).toBe(before)
  })
})

describe('every game', () => {
  test('a bet nobody settles within 256 blocks is refunded its stake', async () => {
    const stake = parseEther('0.1')
    const placed = await chain.write(alice, c().Dice, ours.Dice.abi, 'place', [60, stake])
    const [{ betId }] = events(ours.Dice.abi, placed, 'DicePlaced') as [Args]
    await chain.mine(300)
    const before = await bankBalance(alice)
    const settled = await chain.write(carol, c().Dice, ours.Dice.abi, 'settle', [betId])
    expect(events(ours.Dice.abi, settled)).toEqual([{ betId, player: alice.address, stake }])
    expect(await bankBalance(alice)).toBe(before + stake)
    expect(await revertOf('Dice', 'settle', [betId])).toBe('AlreadySettled')
  })

  test('each stake sends its skim, 0.5 %, to the fee router, which the bank names', async () => {
    const router = c().FeeRouter
    expect(await view<Address>('ArcadeBank', 'feeRouter')).toBe(router)
    const routerBefore = await chain.clients.publicClient.getBalance({ address: router })
    // The fee router counts what each source paid it; the arcade is source 2.
    const arcadeReceived = () => chain.read<bigint>(router, ours.FeeRouter.abi, 'receivedEth', [2])
    const receivedBefore = await arcadeReceived()
    const houseBefore = await view<bigint>('ArcadeBank', 'house')
    const plays: Array<[Exclude<Game, 'Lottery'>, string, unknown[], string]> = [
      ['CoinFlip', 'place', [true], '0.7'],
      ['Dice', 'place', [30], '0.33'],
      ['Crash', 'place', [300], '0.21'],
      ['Roulette', 'place', [2, 0], '0.5'],
      ['Slots', 'spin', [], '0.09'],
      ['Plinko', 'drop', [1], '0.123456789012345678'],
      ['Mines', 'place', [2, 0b11], '0.4'],
    ]
    let skims = 0n
    let kept = 0n
    for (const [game, functionName, choice, stake] of plays) {
      const bet = await play(game, carol, functionName, choice, stake)
      const [skimmed] = events(ours.ArcadeBank.abi, bet.placedIn, 'Skimmed')
      expect(skimmed).toEqual({ game: c()[game], player: carol.address, feeRouter: router, amount: skimOf(bet.stake) })
      skims += skimOf(bet.stake)
      kept += bet.stake - skimOf(bet.stake) - bet.payout
    }
    const ticket = await chain.write(carol, c().Lottery, ours.Lottery.abi, 'buy', [3])
    expect(events(ours.ArcadeBank.abi, ticket, 'Skimmed')[0]!.amount).toBe(skimOf(parseEther('0.03')))
    skims += skimOf(parseEther('0.03'))
    expect(skims).toBeGreaterThan(0n)
    expect((await chain.clients.publicClient.getBalance({ address: router })) - routerBefore).toBe(skims)
    expect((await arcadeReceived()) - receivedBefore).toBe(skims)
    // The house keeps each stake less its skim and payout (the lottery's tickets are held for its pot, less their skim).
    expect((await view<bigint>('ArcadeBank', 'house')) - houseBefore).toBe(kept - skimOf(parseEther('0.03')))
  })

  test("the bank's ether is every balance, the house and the reserves of open bets", async () => {
    const balances = await Promise.all([alice, bob, carol, treasury].map(bankBalance))
    const reserved = await Promise.all(['CoinFlip', ...ARCADE_GAMES].map((game) => view<bigint>('ArcadeBank', 'reservedBy', [c()[game as Game]])))
    // The lottery round opened above is still open: its tickets are reserved.
    expect(reserved.at(-1)).toBe(parseEther('0.03'))
    const house = await view<bigint>('ArcadeBank', 'house')
    const held = await chain.clients.publicClient.getBalance({ address: c().ArcadeBank })
    expect(held).toBe([...balances, ...reserved, house].reduce((sum, value) => sum + value, 0n))
  })

  test('only the owner names the fee router; without one, no skim is taken', async () => {
    const set = (from: Account, router: Address) => chain.write(from, c().ArcadeBank, ours.ArcadeBank.abi, 'setFeeRouter', [router])
    await expect(set(alice, alice.address)).rejects.toThrow('NotOwner')
    await set(treasury, zeroAddress)
    try {
      const bet = await play('CoinFlip', alice, 'place', [false], '1')
      expect(events(ours.ArcadeBank.abi, bet.placedIn, 'Skimmed')).toEqual([])
      expect(await view<bigint>('ArcadeBank', 'skimOf', [parseEther('1')])).toBe(0n)
    } finally {
      await set(treasury, c().FeeRouter)
    }
    expect(await view<bigint>('ArcadeBank', 'skimOf', [parseEther('1')])).toBe(parseEther('0.005'))
  })

  test('every game is enabled in the bank', async () => {
    for (const game of ['CoinFlip', ...ARCADE_GAMES] as Game[]) expect(await view<boolean>('ArcadeBank', 'isGame', [c()[game]])).toBe(true)
  })
})
