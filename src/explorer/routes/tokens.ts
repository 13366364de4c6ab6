import { Elysia } from 'elysia'
import type { Address } from 'viem'
import type { Explorer } from '../explorer.ts'
import { addressKey, checksum } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { busiestCollections, busiestTokens, tokenStat, type TokenStat } from '../read/tokens.ts'

/** The token and NFT lists hold at most 40 entries, with no paging past them. */
export const LIST_MAX = 40
/** Candidates probed for the token list: enough to fill 40 after skipping NFTs. */
const TOKEN_CANDIDATES = 80

/** `/tokens` and `/nfts`, each cached about three seconds. */
export function tokenRoutes(explorer: Explorer) {
  const { db, registry, probes } = explorer

  const stat = (address: string) => tokenStat(db, blob(address))

  /**
   * The native token first, then by transfer count, then listed tokens nobody has moved yet.
   * Each entry merges the registry's entry (name, symbol, decimals, logo, the verified mark) with
   * a live probe (total supply, and the fields the registry does not list). An address whose
   * probe says it is an NFT is left out, whatever its logs looked like.
   */
  const tokens = async () => {
    const native = registry.native()
    const busiest = (await busiestTokens(db, TOKEN_CANDIDATES)).map((row) => checksum(row.address))
    const candidates = [...new Set([...(native ? [checksum(native.address)] : []), ...busiest, ...registry.listed().map((token) => checksum(token.address))])]
    const exchange = await explorer.exchange.current()
    // A pair's liquidity token names itself like every other pair's ("Uniswap V2"): its pair tells it apart.
    const lp = candidates.filter((address) => exchange.pool(address) !== null)
    const probed = await probes.probe([...new Set([...candidates, ...exchange.unlistedTokens(lp, registry)])] as Address[])
    const pools = exchange.names(lp, registry, probed)
    const entries = []
    for (const address of candidates) {
      const probe = probed.get(address.toLowerCase()) ?? null
      if (probe?.nft) continue
      const listed = registry.token(address)
      entries.push({
        address,
        name: listed?.name ?? probe?.name ?? null,
        symbol: listed?.symbol ?? probe?.symbol ?? null,
        decimals: listed?.decimals ?? probe?.decimals ?? null,
        totalSupply: probe?.totalSupply ?? null,
        transfers: (await stat(address))?.transfers ?? 0,
        native: native !== null && native.address.toLowerCase() === address.toLowerCase(),
        verified: listed !== null,
        logoURI: listed?.logoURI ?? null,
        tags: listed?.tags ?? [],
        label: registry.labelName(address),
        probe: probe === null ? null : { name: probe.name, symbol: probe.symbol, decimals: probe.decimals },
        pool: pools.get(address.toLowerCase()) ?? null,
      })
      if (entries.length === LIST_MAX) break
    }
    return entries
  }

  /** Collections seen in transfer logs: verified (listed in the token list) first, then by items minted. */
  const nfts = async () => {
    const busiest = await busiestCollections(db, LIST_MAX)
    const verified = (await Promise.all(registry.listed().map((token) => stat(token.address)))).filter((row): row is TokenStat => row !== null && row.kind !== 20)
    const seen = new Set<string>()
    const rows = [...verified.sort((a, b) => b.minted - a.minted), ...busiest].filter((row) => {
      const key = addressKey(row.address)
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    const chosen = rows.slice(0, LIST_MAX).map((row) => ({ row, address: checksum(row.address) }))
    const probed = await probes.probe(chosen.map(({ address }) => address))
    return {
      nfts: chosen.map(({ row, address }) => {
        const probe = probed.get(address.toLowerCase()) ?? null
        return {
          address,
          name: probe?.name ?? registry.labelName(address),
          symbol: probe?.symbol ?? null,
          standard: `erc${row.kind}`,
          minted: row.minted,
          transfers: row.transfers,
          verified: registry.verified(address),
          label: registry.labelName(address),
        }
      }),
    }
  }

  return new Elysia({ name: 'explorer-tokens' }).get('/tokens', () => explorer.answers.answer('tokens', tokens)).get('/nfts', () => explorer.answers.answer('nfts', nfts))
}
