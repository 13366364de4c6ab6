import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodeFunctionData, parseAbi } from 'viem'
import { createRpc } from '../../src/chain/rpc.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { demoTokenUri } from '../../src/devnet/nft.ts'
import { quantity } from '../../src/eth/quantity.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { DECIMAL, registryListing, seededExplorer, send, statsAt, waitFor, type SeededExplorer } from './helpers.ts'

// The record routes of docs/explorer.md on the seeded dev chain: a transaction, an address, the token and
// NFT lists, a collection and an item, fees and names. Fifty more NFTs are minted (so that the
// collection's clamp to 48 and its 30 recent transfers show), one of them with an http tokenURI
// on this machine, which the resolver must never fetch.

type Summary = { hash: string; method: string | null; blockNumber: number; from: string; to: string | null }
type Frame = { type: string; from: string; to: string | null; value: string | null; method: string | null; input: string; output: string | null; error: string | null; calls: Frame[] }

const nftAbi = parseAbi(['function mint(address to, string uri)'])
let seeded: SeededExplorer
let metadataServer: ReturnType<typeof Bun.serve>
let metadataRequests = 0
let c: SeededExplorer['manifest']['contracts']

beforeAll(async () => {
  metadataServer = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => {
      metadataRequests++
      return Response.json({ name: 'Fetched over http', image: 'https://example.org/i.png' })
    },
  })
  seeded = await seededExplorer('', { answerCacheMs: 1000, collectionCacheMs: 1500 })
  c = seeded.manifest.contracts
  const uris = [...Array.from({ length: 49 }, (_, index) => demoTokenUri(index + 6)), `http://127.0.0.1:${metadataServer.port}/item.json`]
  await send(
    seeded.anvil.rpcUrl,
    uris.map((uri) => ({ from: devAccounts.treasury.address, to: c.DemoNFT, data: encodeFunctionData({ abi: nftAbi, functionName: 'mint', args: [devAccounts.carol.address, uri] }) })),
  )
  await statsAt(seeded, await seeded.head())
})
afterAll(async () => {
  await seeded?.stop()
  metadataServer?.stop(true)
})

const addressOf = <T>(address: string, query = '') => seeded.json<T>(`/address/${address}${query}`)

// First: the collection must be cold, before any address page has queued its items' metadata.
describe('NFT collection and item', () => {
  type Item = { tokenId: string; owner: string | null; tokenURI: string | null; metadata: { name: string } | null }
  type Collection = { address: string; name: string; symbol: string; verified: boolean; itemCount: number; items: Item[]; transfers: Array<{ tokenId: string }> }

  test('items clamped to 48, the 30 most recent transfers; metadata arrives from the background', async () => {
    const cold = await seeded.json<Collection>(`/nft/${c.DemoNFT}`)
    // Tagged, not listed: a tag gives a label, never the verified mark (docs/registry.md).
    expect(cold).toMatchObject({ address: c.DemoNFT, name: 'Dev Chain Sketches', symbol: 'SKETCH', verified: false, label: { name: 'Demo NFT', category: 'token' }, itemCount: 55 })
    expect(cold.items).toHaveLength(48)
    expect(cold.items[0]!.tokenId).toBe('1')
    expect(cold.items.every((item) => item.metadata === null)).toBe(true)
    expect(cold.transfers).toHaveLength(30)
    expect((await seeded.json<Collection>(`/nft/${c.DemoNFT}?limit=500`)).items).toHaveLength(48)
    expect((await seeded.json<Collection>(`/nft/${c.DemoNFT}?limit=2`)).items).toHaveLength(2)
    // Once the resolver has been through the items and the 1.5 s cache of this test has passed.
    const warm = await waitFor(async () => {
      const answer = await seeded.json<Collection>(`/nft/${c.DemoNFT}`)
      return answer.items.every((item) => item.metadata !== null) ? answer : null
    }, 'metadata of the collection')
    expect(warm.items[0]!.metadata!.name).toBe('Sketch #1')
    // A token URI on this machine is never fetched (no server-side request forgery): the item
    // shows its URI and no metadata, and the server on loopback never hears of it.
    const last = await waitFor(async () => {
      const item = (await seeded.json<Collection>(`/nft/${c.DemoNFT}?offset=50`)).items.at(-1)
      return item?.tokenURI ? item : null
    }, 'the last item resolved')
    expect(last).toMatchObject({ tokenId: '55', tokenURI: `http://127.0.0.1:${metadataServer.port}/item.json`, metadata: null })
    expect(metadataRequests).toBe(0)
  })

  test('the item with its collectionMeta; ids that are not digits do not match the route', async () => {
    const item = await seeded.json<{ tokenId: string; owner: string; metadata: { name: string }; collectionMeta: Record<string, unknown>; transfers: unknown[] }>(`/nft/${c.DemoNFT}/1`)
    expect(item).toMatchObject({ tokenId: '1', owner: devAccounts.bob.address, metadata: { name: 'Sketch #1' } })
    expect(item.collectionMeta).toMatchObject({ address: c.DemoNFT, name: 'Dev Chain Sketches', symbol: 'SKETCH', standard: 'erc721', verified: false })
    expect(item.transfers).toHaveLength(3)
    expect(await seeded.json(`/nft/${c.DemoNFT}/abc`, 404)).toEqual({ error: 'not found' })
    expect(await seeded.json(`/nft/${c.DemoNFT}/1.5`, 404)).toEqual({ error: 'not found' })
    await seeded.json(`/nft/${c.DemoNFT}/9999`, 404)
    await seeded.json(`/nft/${c.BX}`, 404)
    await seeded.json('/nft/nothing', 404)
  })
})

describe('/tx/{hash}', () => {
  test('a router swap: decoded, labelled logs, token transfers, and the call tree nested router → pool → token', async () => {
    const router = await addressOf<{ transactions: Summary[] }>(c.SwapRouter)
    const swap = router.transactions.find((tx) => tx.method === 'exactInputSingle')!
    type Full = Summary & { success: boolean; status: string; input: string; decoded: { name: string; args: Array<{ name: string; value: Record<string, unknown> }> }; logs: Array<{ address: string; label: { name: string } | null; event: { name: string } | null }>; traces: Frame[]; tokenTransfers: Array<{ token: string; symbol: string; value: string; verified: boolean }>; nftTransfers: unknown[] }
    const tx = await seeded.json<Full>(`/tx/${swap.hash}`)
    expect(tx).toMatchObject({ hash: swap.hash, success: true, status: 'success', to: c.SwapRouter, decoded: { name: 'exactInputSingle' } })
    // The prefix in either case, as an address's.
    expect(await seeded.json(`/tx/${swap.hash.toUpperCase()}`)).toEqual(tx)
    expect(tx.decoded.args[0]!.value).toHaveProperty('tokenIn')
    const weth = tx.logs.find((log) => log.address === c.WETH9)!
    expect(weth.label?.name).toBe('Wrapped Ether (WETH9)')
    expect(weth.event?.name).toBe('Transfer')
    expect(tx.tokenTransfers).toHaveLength(2)
    for (const transfer of tx.tokenTransfers) expect(transfer.value).toMatch(DECIMAL)
    expect(tx.tokenTransfers.map((transfer) => transfer.symbol).sort()).toEqual(['DUSD', 'WETH'])
    expect(tx.nftTransfers).toEqual([])

    // The trace: the router calls the pool, which calls a token (and back into the router).
    expect(tx.traces).toHaveLength(1)
    const [root] = tx.traces
    expect(root).toMatchObject({ type: 'CALL', from: tx.from, to: c.SwapRouter, method: 'exactInputSingle', value: '0', error: null })
    const pool = root!.calls[0]!
    expect(pool).toMatchObject({ from: c.SwapRouter, method: 'swap' })
    expect(pool.calls.some((call) => call.to === c.WETH9 && call.method === 'transfer')).toBe(true)
    const callback = pool.calls.find((call) => call.to === c.SwapRouter)!
    expect(callback.method).toBe('uniswapV3SwapCallback')
    expect(callback.calls[0]).toMatchObject({ to: c.DUSD, method: 'transferFrom' })
  })

  test('an NFT transfer: named as ERC-721 (tokenId), with its NFT transfer', async () => {
    const nft = await addressOf<{ transactions: Summary[] }>(c.DemoNFT, '?limit=100')
    const move = nft.transactions.find((tx) => tx.method === 'transferFrom')!
    const tx = await seeded.json<{ decoded: { args: Array<{ name: string }> }; nftTransfers: Array<Record<string, unknown>>; tokenTransfers: unknown[] }>(`/tx/${move.hash}`)
    expect(tx.decoded.args.map((arg) => arg.name)).toEqual(['from', 'to', 'tokenId'])
    expect(tx.nftTransfers).toEqual([expect.objectContaining({ token: c.DemoNFT, tokenLabel: 'Demo NFT', standard: 'erc721', amount: '1', tokenId: expect.stringMatching(DECIMAL) })])
    expect(tx.tokenTransfers).toEqual([])
  })

  test('a transfer of an unlisted token names it by asking it', async () => {
    const tokens = await seeded.json<Array<{ address: string; symbol: string; verified: boolean }>>('/tokens')
    const lp = tokens.find((token) => token.symbol === 'UNI-V2')!
    const transfers = await addressOf<{ tokenTransfers: Array<{ txHash: string; token: string }> }>(devAccounts.alice.address, '?limit=100')
    const lpMove = transfers.tokenTransfers.find((transfer) => transfer.token === lp.address)!
    const tx = await seeded.json<{ tokenTransfers: Array<{ token: string; symbol: string; decimals: number; verified: boolean }> }>(`/tx/${lpMove.txHash}`)
    expect(tx.tokenTransfers.find((transfer) => transfer.token === lp.address)).toMatchObject({ symbol: 'UNI-V2', decimals: 18, verified: false })
  })

  test('unknown and malformed hashes are 404', async () => {
    await seeded.json(`/tx/0x${'12'.repeat(32)}`, 404)
    await seeded.json('/tx/0x1234', 404)
    await seeded.json('/tx/hello', 404)
  })
})

describe('the answer caches are keyed by what was parsed', () => {
  /** The address with the case of its first letter flipped: the checksum no longer holds. */
  const badChecksum = (address: string) => address.replace(/[a-fA-F]/, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()))

  test('a malformed parameter is refused while its valid twin is cached', async () => {
    const { hash } = (await seeded.json<Array<{ hash: string }>>('/txs'))[0]!
    await seeded.json(`/tx/${hash}`)
    await seeded.json(`/tx/${hash}0`, 404)
    await seeded.json(`/tx/${hash.slice(2)}`, 404)
    await seeded.json(`/nft/${c.DemoNFT}`)
    await seeded.json(`/nft/${badChecksum(c.DemoNFT)}`, 404)
    await seeded.json(`/nft/${c.DemoNFT}/1`)
    await seeded.json(`/nft/${badChecksum(c.DemoNFT)}/1`, 404)
    await seeded.json(`/address/${devAccounts.bob.address}`)
    await seeded.json(`/address/${badChecksum(devAccounts.bob.address)}`, 404)
  })

  test('twins that mean the same answer the same: any case of a valid address, leading zeros of a token id, a hash\'s 0X', async () => {
    expect(await seeded.json(`/nft/${c.DemoNFT.toLowerCase()}/001`)).toEqual(await seeded.json(`/nft/${c.DemoNFT}/1`))
    const { hash } = (await seeded.json<Array<{ hash: string }>>('/txs'))[0]!
    expect(await seeded.json(`/tx/0X${hash.slice(2)}`)).toEqual(await seeded.json(`/tx/${hash}`))
    expect(await seeded.json(`/tx/${hash.toUpperCase()}`)).toEqual(await seeded.json(`/tx/${hash}`))
  })
})

describe('/address/{address}', () => {
  type AddressAnswer = {
    address: string
    label: { name: string } | null
    balance: string | null
    nonce: number | null
    contract: boolean | null
    bytecode: string | null
    bytecodeSize: number | null
    creator: { address: string; txHash: string } | null
    createdContracts: Array<{ address: string; txHash: string }>
    counts: { transactions: number; sent: number; received: number; tokenTransfers: number; nftTransfers: number }
    tokens: Array<{ token: string; symbol: string; balance: string | null; verified: boolean }>
    nfts: Array<{ token: string; tokenId: string; tokenURI: string | null; metadata: { name?: string; image?: unknown } | null }>
    name: null
    transactions: Summary[]
    tokenTransfers: Array<{ tokenLabel: string | null; symbol: string | null; decimals: number | null }>
    nftTransfers: unknown[]
  }

  test('an account: live balance and nonce, counts, holdings, recent transactions, paged', async () => {
    const rpc = createRpc(seeded.anvil.rpcUrl)
    const alice = devAccounts.alice.address
    const answer = await addressOf<AddressAnswer>(alice.toLowerCase())
    expect(answer.address).toBe(alice)
    expect(answer.balance).toBe(BigInt(await rpc.call<string>('eth_getBalance', [alice, 'latest'])).toString())
    expect(answer.nonce).toBe(quantity(await rpc.call<string>('eth_getTransactionCount', [alice, 'latest'])))
    expect(answer).toMatchObject({ contract: false, bytecode: null, bytecodeSize: 0, creator: null, name: { name: 'alice.bx', owner: alice } })
    expect(answer.counts.sent).toBe(answer.nonce!)
    expect(answer.counts.tokenTransfers).toBeGreaterThan(0)
    expect(answer.tokens.find((token) => token.token === c.BX)).toMatchObject({ symbol: 'BX', verified: true, balance: expect.stringMatching(DECIMAL) })
    expect(answer.nfts).toContainEqual(expect.objectContaining({ token: c.DemoNFT, tokenId: '3' }))
    // What the chain itself holds is resolved on the first view, in the answer's own batch: the
    // seed's token URIs (the demo items', the positions' made by the descriptor) are data: URIs.
    expect(answer.nfts.find((nft) => nft.token === c.DemoNFT && nft.tokenId === '3')).toMatchObject({ tokenURI: demoTokenUri(3), metadata: { name: 'Sketch #3' } })
    expect(answer.nfts.every((nft) => typeof nft.metadata?.image === 'string' && nft.metadata.image.startsWith('data:image/'))).toBe(true)
    // Transfers of tokens the registry does not list (the launched tokens, the pairs' shares) are
    // named by asking them, as the holdings are.
    const unlisted = (await addressOf<AddressAnswer>(alice, '?limit=100')).tokenTransfers.filter((transfer) => transfer.tokenLabel === null)
    expect(unlisted.length).toBeGreaterThan(0)
    expect(new Set(unlisted.map((transfer) => transfer.symbol))).toEqual(new Set(['MOON', 'PXL', 'UNI-V2']))
    expect(unlisted.every((transfer) => transfer.decimals === 18)).toBe(true)
    expect(answer.transactions).toHaveLength(25)
    const blocks = answer.transactions.map((tx) => tx.blockNumber)
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a))
    const paged = await addressOf<AddressAnswer>(alice, '?limit=2&offset=1')
    expect(paged.transactions.map((tx) => tx.hash)).toEqual(answer.transactions.slice(1, 3).map((tx) => tx.hash))
    expect(paged.tokenTransfers).toHaveLength(2)
  })

  test('a contract: bytecode cut to 400 hex characters with an ellipsis, its real size, its creator', async () => {
    const code = await createRpc(seeded.anvil.rpcUrl).call<string>('eth_getCode', [c.BX, 'latest'])
    const bx = await addressOf<AddressAnswer>(c.BX)
    expect(bx).toMatchObject({ contract: true, label: { name: 'BX Token' }, bytecodeSize: (code.length - 2) / 2 })
    expect(bx.bytecode).toBe(`${code.slice(0, 402)}…`)
    expect(bx.creator?.address).toBe(devAccounts.deployer.address)
    expect(bx.creator?.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    const deployer = await addressOf<AddressAnswer>(devAccounts.deployer.address)
    expect(deployer.createdContracts.map((created) => created.address)).toContain(c.BX)
    expect(deployer.createdContracts.map((created) => created.address)).toContain(c.DemoNFT)
  })

  test('a contract created inside a call has the factory as its creator (from the traces)', async () => {
    const tokens = await seeded.json<Array<{ address: string; symbol: string }>>('/tokens')
    const pair = tokens.find((token) => token.symbol === 'UNI-V2')!.address
    expect((await addressOf<AddressAnswer>(pair)).creator?.address).toBe(c.UniswapV2Factory)
    const factory = await addressOf<AddressAnswer>(c.UniswapV2Factory)
    // The seed's three pairs, and one for each token it launches (made by the launcher's call).
    expect(factory.createdContracts).toHaveLength(3 + seeded.seed!.protocol.launches.length)
  })

  test('cached about a few seconds under a key that includes the paging', async () => {
    const carol = devAccounts.carol.address
    const before = await addressOf<AddressAnswer>(carol, '?limit=1')
    await send(seeded.anvil.rpcUrl, [{ from: carol, to: carol, value: 1n }])
    expect((await addressOf<AddressAnswer>(carol, '?limit=1')).nonce).toBe(before.nonce)
    expect((await addressOf<AddressAnswer>(carol, '?limit=2')).nonce).toBe(before.nonce! + 1)
    await Bun.sleep(1100)
    expect((await addressOf<AddressAnswer>(carol, '?limit=1')).nonce).toBe(before.nonce! + 1)
  })

  test('not an address, or a wrong checksum, is 404', async () => {
    await seeded.json('/address/0x1234', 404)
    await seeded.json('/address/hello', 404)
    await seeded.json(`/address/${c.BX.replace('F', 'f').replace('b', 'B')}`, 404)
  })
})

describe('/tokens and /nfts', () => {
  test('tokens: the native token first, then by transfer count; NFTs skipped; registry merged with a live probe', async () => {
    type Token = { address: string; name: string; symbol: string; decimals: number; totalSupply: string; transfers: number; native: boolean; verified: boolean; logoURI: string | null }
    const tokens = await seeded.json<Token[]>('/tokens')
    expect(tokens.length).toBeLessThanOrEqual(40)
    expect(tokens[0]).toMatchObject({ address: c.BX, symbol: 'BX', native: true, verified: true, decimals: 18, totalSupply: '1000000000000000000000000000' })
    const rest = tokens.slice(1).map((token) => token.transfers)
    expect(rest).toEqual([...rest].sort((a, b) => b - a))
    const addresses = tokens.map((token) => token.address)
    expect(addresses).not.toContain(c.DemoNFT)
    expect(addresses).not.toContain(c.NonfungiblePositionManager)
    expect(tokens.find((token) => token.address === c.DUSD)).toMatchObject({ name: 'Demo USD', decimals: 6, verified: true, logoURI: expect.stringContaining('/logos/tokens/') })
    expect(tokens.filter((token) => token.symbol === 'UNI-V2').every((token) => !token.verified && DECIMAL.test(token.totalSupply))).toBe(true)
  })

  type Nft = { address: string; minted: number; verified: boolean; standard: string; label: string | null }

  test('nfts: {nfts} by count minted; a tag gives a label, never the verified mark', async () => {
    const { nfts } = await seeded.json<{ nfts: Nft[] }>('/nfts')
    expect(nfts.map((nft) => nft.address)).toEqual([c.DemoNFT, c.NonfungiblePositionManager])
    expect(nfts[0]).toMatchObject({ minted: 55, verified: false, standard: 'erc721', label: 'Demo NFT' })
    expect(nfts[1]).toMatchObject({ verified: false, label: 'Uniswap V3: Positions NFT' })
  })

  test('nfts: a collection the token list lists is verified and comes first, whatever it minted', async () => {
    const registry = registryListing(c.NonfungiblePositionManager, 'UNI-V3-POS')
    const context = testContext(`[chain]\nrpc = "${seeded.anvil.rpcUrl}"\n[registry]\nsource = "${registry}"\n[explorer]\nrateLimitPerMinute = 1000000000\n`)
    const other = serveOnFreePort(createExplorerApp(context, seeded.spool), 'explorer')
    try {
      await waitFor(async () => (await fetch(`${other.url}/api/tokenlist`)).status === 200, 'the copy that lists the positions NFT')
      const { nfts } = (await (await fetch(`${other.url}/api/nfts`)).json()) as { nfts: Nft[] }
      expect(nfts.map((nft) => nft.address)).toEqual([c.NonfungiblePositionManager, c.DemoNFT])
      expect(nfts.map((nft) => nft.verified)).toEqual([true, false])
      const collection = (await (await fetch(`${other.url}/api/nft/${c.NonfungiblePositionManager}`)).json()) as { verified: boolean }
      expect(collection.verified).toBe(true)
    } finally {
      await other.stop()
    }
  })
})


