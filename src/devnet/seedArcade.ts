import { parseEther, parseEventLogs, type Abi, type Account, type Address, type TransactionReceipt } from 'viem'
import { devAccounts } from './accounts.ts'
import { ours } from './artifacts.ts'
import type { Manifest } from './deploy.ts'

/** Sends a contract call from `account` and waits for its receipt (the seed's own `write`). */
export type SeedWrite = (account: Account, address: Address, abi: Abi, functionName: string, args?: unknown[], value?: bigint) => Promise<TransactionReceipt>

/** The arcade's single-bet games and how the seed plays each: who, what, how much. */
const PLAYS = {
  CoinFlip: [
    ['alice', 'place', [true], '1'],
    ['bob', 'place', [false], '0.5'],
    ['alice', 'place', [false], '2'],
    ['bob', 'place', [true], '0.25'],
  ],
  // Roll under 51 (a 50 % chance, 1.98x) and under 10 (9 %, 11x).
  Dice: [
    ['alice', 'place', [51], '1'],
    ['bob', 'place', [10], '0.2'],
  ],
  // Cash out at 2.00x and at 1.50x.
  Crash: [
    ['alice', 'place', [200], '0.5'],
    ['bob', 'place', [150], '0.3'],
  ],
  // Red, straight on 17, the second dozen.
  Roulette: [
    ['alice', 'place', [1, 0], '0.5'],
    ['bob', 'place', [0, 17], '0.1'],
    ['carol', 'place', [7, 2], '0.2'],
  ],
  Slots: [
    ['alice', 'spin', [], '0.05'],
    ['bob', 'spin', [], '0.02'],
  ],
  // Low risk and high risk.
  Plinko: [
    ['alice', 'drop', [0], '0.2'],
    ['bob', 'drop', [1], '0.1'],
  ],
  // Three mines, three tiles picked (0, 6, 12); one mine, five tiles picked (the top row).
  Mines: [
    ['alice', 'place', [3, 0b1_0000_0100_0001], '0.2'],
    ['carol', 'place', [1, 0b11111], '0.1'],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [keyof typeof devAccounts, string, readonly unknown[], string]>>

export type ArcadeSeedReport = {
  /** Bet ids of each single-bet game, in the order placed (all settled). */
  bets: Record<keyof typeof PLAYS, bigint[]>
  /** The lottery round drawn. */
  lotteryRound: bigint
}

/**
 * Plays every arcade game so that each room has events: players fund their bank balance, buy
 * lottery tickets, place bets in every single-bet game, one withdraws, then every bet is settled
 * (from the next block: each transaction here is mined on its own) and the lottery drawn, once
 * its round is over. The settlements come last, so each room's last event is its game's outcome.
 */
export async function seedArcade(write: SeedWrite, manifest: Manifest): Promise<ArcadeSeedReport> {
  const c = manifest.contracts
  const bank = (account: Account, functionName: string, args: unknown[] = [], value?: bigint) => write(account, c.ArcadeBank, ours.ArcadeBank.abi, functionName, args, value)
  await bank(devAccounts.alice, 'deposit', [], parseEther('20'))
  await bank(devAccounts.bob, 'deposit', [], parseEther('10'))
  await bank(devAccounts.carol, 'deposit', [], parseEther('5'))

  // The round's first ticket sets its last block, ROUND_BLOCKS (10) later; the bets below
  // take more blocks than that, so the round is over by the time it is drawn.
  const lottery = (account: Account, functionName: string, args: unknown[] = []) => write(account, c.Lottery, ours.Lottery.abi, functionName, args)
  const [bought] = parseEventLogs({ abi: ours.Lottery.abi, logs: (await lottery(devAccounts.alice, 'buy', [5])).logs, eventName: 'TicketsBought' }) as unknown as Array<{ args: { round: bigint } }>
  await lottery(devAccounts.bob, 'buy', [3])
  await lottery(devAccounts.carol, 'buy', [2])

  const bets = {} as Record<keyof typeof PLAYS, bigint[]>
  for (const [game, plays] of Object.entries(PLAYS) as Array<[keyof typeof PLAYS, (typeof PLAYS)[keyof typeof PLAYS]]>) {
    bets[game] = []
    for (const [player, functionName, choice, stake] of plays) {
      const receipt = await write(devAccounts[player], c[game], ours[game].abi, functionName, [...choice, parseEther(stake)])
      bets[game].push(betIdOf(ours[game].abi, receipt))
    }
  }
  await bank(devAccounts.alice, 'withdraw', [parseEther('1')])

  for (const [game, ids] of Object.entries(bets) as Array<[keyof typeof PLAYS, bigint[]]>) {
    for (const betId of ids) await write(devAccounts.carol, c[game], ours[game].abi, 'settle', [betId])
  }
  await lottery(devAccounts.carol, 'draw')
  return { bets, lotteryRound: bought!.args.round }
}

/** The bet id a game's placing event carries. */
function betIdOf(abi: Abi, receipt: TransactionReceipt): bigint {
  const [placed] = parseEventLogs({ abi, logs: receipt.logs }) as unknown as Array<{ args: { betId: bigint } }>
  return placed!.args.betId
}
