import { Elysia } from 'elysia'
import type { Address } from 'viem'
import { NotFoundError } from '../../errors.ts'
import { checksum, parseAddress } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { internalRows, transactionRows, transferRows, wholeChain, INTERNAL_WINDOW } from '../addressLists.ts'
import type { Explorer } from '../explorer.ts'
import { page } from '../paging.ts'
import { holderCount, tokenHolders } from '../read/balances.ts'
import { accountCounts } from '../read/tally.ts'
import { tokenStat } from '../read/tokens.ts'
import { tokenTransfers, transferCounts } from '../read/transfers.ts'
import { tokenMetaOf, transferRow } from '../rows.ts'
import { TOKEN_META_AGE_MS } from '../probes.ts'

/** The address of a path, or 404. */
function addressOf(text: string): Address {
  const address = parseAddress(text)
  if (!address) throw new NotFoundError('not an address')
  return address
}

/**
 * An address's lists, each paged on its own (`limit`, `offset`), newest first: its
 * transactions, token transfers, NFT transfers and internal transactions; and a token's holders
 * and transfers, and the exchange's pairs and pools that trade it. Answers are kept while the
 * spool holds the same (and a few seconds at most: a probed symbol, a label).
 */
export function listRoutes(explorer: Explorer) {
  const { db, registry } = explorer
  const kept = (key: string, compute: () => unknown) => explorer.lists.answer(key, compute)

  return new Elysia({ name: 'explorer-lists' })
    .get('/address/:address/transactions', ({ params, query }) => {
      const address = addressOf(params.address)
      const paging = page(query)
      return kept(`txs:${address}:${paging.limit}:${paging.offset}`, async () => {
        const counts = await accountCounts(db, blob(address))
        return { total: counts.sent + counts.received - counts.self, transactions: await transactionRows(explorer, address, await wholeChain(explorer), paging) }
      })
    })
    .get('/address/:address/token-transfers', ({ params, query }) => {
      const address = addressOf(params.address)
      const paging = page(query)
      return kept(`erc20:${address}:${paging.limit}:${paging.offset}`, async () => ({
        total: (await transferCounts(db, blob(address))).tokenTransfers,
        transfers: await transferRows(explorer, address, true, await wholeChain(explorer), paging),
      }))
    })
    .get('/address/:address/nft-transfers', ({ params, query }) => {
      const address = addressOf(params.address)
      const paging = page(query)
      return kept(`nft:${address}:${paging.limit}:${paging.offset}`, async () => ({
        total: (await transferCounts(db, blob(address))).nftTransfers,
        transfers: await transferRows(explorer, address, false, await wholeChain(explorer), paging),
      }))
    })
    .get('/address/:address/internal', ({ params, query }) => {
      const address = addressOf(params.address)
      const paging = page(query)
      return kept(`internal:${address}:${paging.limit}:${paging.offset}`, async () => ({ window: INTERNAL_WINDOW, calls: await internalRows(explorer, address, paging) }))
    })
    .get('/token/:address/holders', ({ params, query }) => {
      const address = addressOf(params.address)
      const paging = page(query)
      return kept(`holders:${address}:${paging.limit}:${paging.offset}`, async () => {
        const token = blob(address)
        return {
          total: await holderCount(db, token),
          holders: (await tokenHolders(db, token, paging)).map(({ holder, balance }) => {
            const at = checksum(holder)
            return { address: at, label: registry.labelName(at), balance }
          }),
        }
      })
    })
    .get('/token/:address/transfers', ({ params, query }) => {
      const address = addressOf(params.address)
      const paging = page(query)
      return kept(`token-transfers:${address}:${paging.limit}:${paging.offset}`, async () => {
        const token = blob(address)
        const probed = registry.token(address) ? new Map() : await explorer.probes.probe([address], TOKEN_META_AGE_MS)
        const meta = tokenMetaOf(registry, probed)
        return {
          total: (await tokenStat(db, token))?.transfers ?? 0,
          transfers: (await tokenTransfers(db, token, paging.limit, paging.offset)).map((transfer) => transferRow(transfer, registry, meta)),
        }
      })
    })
    .get('/token/:address/pools', ({ params }) => {
      const address = addressOf(params.address)
      return kept(`token-pools:${address}`, async () => {
        const exchange = await explorer.exchange.current()
        const own = exchange.pool(address)
        const trading = exchange.poolsOf(address)
        const addresses = [...(own ? [own.address] : []), ...trading.map((pool) => pool.address)]
        const probed = await explorer.probes.probe(exchange.unlistedTokens(addresses, registry), TOKEN_META_AGE_MS)
        const names = exchange.names(addresses, registry, probed)
        const shown = (pool: NonNullable<typeof own>) => ({ ...pool, tokens: exchange.ordered(pool), name: names.get(pool.address.toLowerCase()) ?? null })
        // `pool`: the pair whose liquidity token this is; `pools`: those that trade it.
        return { pool: own ? shown(own) : null, pools: trading.map(shown) }
      })
    })
}
