import { Elysia } from 'elysia'
import type { Address } from 'viem'
import { checksum } from '../../eth/address.ts'
import { blob, hex } from '../../eth/bytes.ts'
import { streamPosition, txHashes } from '../../spool/read.ts'
import type { Explorer } from '../explorer.ts'
import { FEES_STREAM, sourceName } from '../feeStream.ts'
import { feeRouterSettings, feeTotals, latestFeeMovements, type FeeTotal } from '../read/fees.ts'

/** The movements `/fees` lists, newest first. */
const RECENT_SHOWN = 20

/** Ether and the token, always apart (never summed). */
type Sides = { eth: bigint; token: bigint }
const sides = (eth: bigint, token: bigint): Sides => ({ eth, token })
const text = ({ eth, token }: Sides) => ({ eth: eth.toString(), token: token.toString() })

/**
 * The fee layer read from the spool's logs of the router the config names
 * (`explorer.feeRouter`), as the `fees` stream keeps them: what each source paid (launches,
 * names, arcade skims), the split (the burned share and the treasury's), what waits to be split
 * (`deferred`), what the treasury may still claim and has claimed, and what the router holds in
 * ether (`pendingEthWei`) and in the token (`pendingToken`). Every figure is a decimal string of
 * base units, ether and token apart. `{deployed: false}` and nothing else with no router
 * configured.
 */
export function feeRoutes(explorer: Explorer) {
  const { db, registry } = explorer
  const router = explorer.contracts.feeRouter

  const answer = async (address: Address) => {
    const key = blob(address)
    const settings = await feeRouterSettings(db, key)
    const totals = await feeTotals(db, key)
    const total = (figure: string): FeeTotal => totals.get(figure) ?? { amount: 0n, count: 0 }
    const pair = (prefix: string) => sides(total(`${prefix}:eth`).amount, total(`${prefix}:token`).amount)
    const source = (name: string) => ({ count: total(`received:${name}:eth`).count + total(`received:${name}:token`).count, ...text(pair(`received:${name}`)) })

    // Every source, the three the router knows and any other it has been paid by.
    const received = sides(0n, 0n)
    let receivedCount = 0
    for (const [figure, { amount, count }] of totals) {
      const match = /^received:[^:]+:(eth|token)$/.exec(figure)
      if (!match) continue
      received[match[1] as 'eth' | 'token'] += amount
      receivedCount += count
    }
    const burned = pair('burned')
    const toTreasury = pair('treasury')
    const claimed = pair('claimed')
    const deferred = sides(received.eth - burned.eth - toTreasury.eth, received.token - burned.token - toTreasury.token)
    const claimable = sides(toTreasury.eth - claimed.eth, toTreasury.token - claimed.token)

    const movements = await latestFeeMovements(db, key, RECENT_SHOWN)
    const hashes = await txHashes(db, movements.map((movement) => movement.txId))
    return {
      deployed: true,
      router: address,
      routerLabel: registry.labelName(address),
      token: settings ? checksum(settings.token) : null,
      treasury: settings ? checksum(settings.treasury) : null,
      split: settings ? { burnBps: settings.burnBps, treasuryBps: 10_000 - settings.burnBps } : null,
      burn: { address: settings ? checksum(settings.burnAddress) : null, ...text(burned) },
      launches: source('launch'),
      names: source('name'),
      arcadeSkims: source('arcade'),
      received: { count: receivedCount, ...text(received) },
      distributions: total('distributions').count,
      toTreasury: text(toTreasury),
      deferred: text(deferred),
      claimable: text(claimable),
      claimed: { count: total('claims').count, ...text(claimed) },
      pendingEthWei: (deferred.eth + claimable.eth).toString(),
      pendingToken: (deferred.token + claimable.token).toString(),
      derivedBlock: (await streamPosition(db, FEES_STREAM)).cursorBlock,
      recent: movements.map((movement) => ({
        txHash: hex(hashes.get(movement.txId) ?? null),
        blockNumber: movement.blockNumber,
        logIndex: movement.logIndex,
        kind: movement.kind,
        source: movement.source === null ? null : sourceName(movement.source),
        account: checksum(movement.account),
        eth: movement.eth,
        token: movement.token,
        ethBurned: movement.ethBurned,
        tokenBurned: movement.tokenBurned,
      })),
    }
  }

  return new Elysia({ name: 'explorer-fees' }).get('/fees', async () => (router ? await answer(router) : { deployed: false }))
}
