import { devAccounts } from '../../src/devnet/accounts.ts'

// The explorer's and the exchange index's routes over the seeded dev chain, with the addresses,
// transactions, pools and NFTs that chain holds: for the tests that ask two stacks every route
// and hold them to one answer.

const TREASURY = devAccounts.treasury.address
const ALICE = devAccounts.alice.address
const BX = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** A response as one string: its status and its body. */
export const answerOf = async (url: string) => {
  const response = await fetch(url)
  return `${response.status} ${await response.text()}`
}

/** Every route of both services (paths under each one's origin), found from the stack at `explorer` and `exchange`. */
export async function seededRoutes(explorer: string, exchange: string): Promise<{ explorer: string[]; exchange: string[] }> {
  const json = async (url: string) => JSON.parse((await answerOf(url)).slice(4))
  const api = (path: string) => json(`${explorer}/api${path}`)
  const [tx] = await api('/txs')
  const pools = (await json(`${exchange}/pools`)).pools
  const clPools = (await json(`${exchange}/cl/pools`)).pools
  const nft = (await api('/nfts')).nfts[0].address
  const item = (await api(`/nft/${nft}`)).items?.[0]?.tokenId ?? '1'
  const explorerPaths = [
    '/stats', '/overview', '/blocks', '/blocks?active=1&limit=5', '/txs?limit=7&offset=3', '/minis', '/accounts?limit=20', '/tokens', '/nfts', '/fees', '/charts?limit=30', '/positions',
    `/block/${tx.blockNumber}`, `/block/1`, `/mini/${tx.blockNumber}`, `/tx/${tx.hash}`,
    ...[TREASURY, ALICE, BX, pools[0].pair, clPools[0].pool, nft].flatMap((address: string) => [
      `/address/${address}`, `/address/${address}/transactions`, `/address/${address}/token-transfers`, `/address/${address}/nft-transfers`, `/address/${address}/internal`, `/address/${address}/contract`,
    ]),
    `/token/${BX}/holders`, `/token/${BX}/transfers`, `/token/${BX}/pools`, `/nft/${nft}`, `/nft/${nft}/${item}`,
    '/search?q=BX', '/search?q=weth', `/search?q=${tx.hash}`, `/names?addresses=${TREASURY},${BX}`,
  ].map((path) => `/api${path}`)
  const exchangePaths = ['/pools', '/tokens', '/swaps', '/events', '/stats', '/cl/pools', '/cl/tiers', '/cl/positions', '/cl/swaps', '/cl/events', `/pool/${pools[0].pair}`, `/cl/pool/${clPools[0].pool}`, `/cl/ticks?pool=${clPools[0].pool}`]
  return { explorer: explorerPaths, exchange: exchangePaths }
}
