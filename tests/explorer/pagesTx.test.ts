import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem'
import { createRpc, type Rpc } from '../../src/chain/rpc.ts'
import { expectText, openPage, pageForFile, screenshot, type PagesStack } from '../helpers/explorerPages.ts'
import { stackRuntime } from './counterContract.ts'

// A transaction told in full, against `stack dev`'s seeded chain: /api/tx/{hash}/state read
// against the node itself (balances, nonces, slots and token balances at the blocks either side),
// and the transaction page in Chromium at a phone's and a laptop's width, light and dark: the gas
// block, the sender's previous and next, a creation's init code folded, token amounts in their
// units, the state changes tab of a swap. No page meets a script error or a failed request.

let stack: PagesStack
let page: Page
let errors: string[]
let rpc: Rpc
pageForFile((shared) => {
  ;({ stack, page, errors } = shared)
  rpc = createRpc(stackRuntime(stack.dir).rpcUrl)
})

// Written here apart from the pages' own formatting, so that a slip there shows.
const grouped = (value: bigint | number) => BigInt(value).toLocaleString('en-US')
function inUnits(amount: string, decimals: number, fraction = 6): string {
  const value = BigInt(amount)
  const size = value < 0n ? -value : value
  const scale = 10n ** BigInt(decimals)
  const places = (size % scale).toString().padStart(decimals, '0').slice(0, fraction).replace(/0+$/, '')
  return `${value < 0n ? '-' : ''}${grouped(size / scale)}${places ? `.${places}` : ''}`
}
const q = (n: number) => `0x${n.toString(16)}`
const word = (value: Hex) => `0x${value.slice(2).padStart(64, '0')}`

type Tx = any
type State = {
  tokens: Array<{ token: string; symbol: string | null; decimals: number | null; holder: string; change: string }>
  accounts: Array<{ address: string; balance: { before: string; after: string } | null; nonce: { before: number; after: number } | null; codeSize: unknown; storage: Array<{ slot: string; before: string; after: string }> }> | null
  accountsMissing: string | null
  truncated: boolean
}

/** A swap of the seed (a pair's or a pool's): tokens moved, a Swap event, alone in its block. Found once. */
let found: Promise<Tx> | null = null
const aSwap = (): Promise<Tx> =>
  (found ??= (async () => {
    for (let offset = 0; offset < 1000; offset += 100) {
      const txs = await stack.api<Array<{ hash: string; method: string | null }>>(`/txs?limit=100&offset=${offset}`)
      for (const row of txs.filter((tx) => /swap|exactInput|exactOutput/i.test(tx.method ?? ''))) {
        const tx = await stack.api<Tx>(`/tx/${row.hash}`)
        const block = await stack.api<{ transactions: unknown[] }>(`/block/${tx.blockNumber}`)
        if (tx.success && tx.tokenTransfers.length >= 1 && tx.logs.some((log: Tx) => log.event?.name === 'Swap') && block.transactions.length === 1) return tx
      }
      if (txs.length < 100) break
    }
    throw new Error('no swap alone in its block among the transactions')
  })())

/** The newest contract creation of the seed (found by paging the transactions back). */
async function aCreation(): Promise<Tx> {
  for (let offset = 0; offset < 5000; offset += 100) {
    const txs = await stack.api<Array<{ hash: string; to: string | null }>>(`/txs?limit=100&offset=${offset}`)
    const creation = txs.find((tx) => tx.to === null)
    if (creation) return stack.api<Tx>(`/tx/${creation.hash}`)
    if (txs.length < 100) break
  }
  throw new Error('no creation among the transactions')
}

describe('/api/tx/{hash}/state', () => {
  test("a swap's token balances, ether, nonces and storage, as the node reads them at the blocks either side", async () => {
    const swap = await aSwap()
    const response = await fetch(`${stack.origin}/api/tx/${swap.hash}/state`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const state = (await response.json()) as State
    const before = q(swap.blockNumber - 1)
    const after = q(swap.blockNumber)

    // Token balances: each holder's change is what balanceOf says it changed, and every holder the transfers name is there.
    const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])
    const balanceOf = async (token: string, holder: string, at: string) =>
      BigInt(await rpc.call<Hex>('eth_call', [{ to: token, data: encodeFunctionData({ abi: erc20, functionName: 'balanceOf', args: [holder as Hex] }) }, at]))
    expect(state.tokens.length).toBeGreaterThanOrEqual(2)
    for (const change of state.tokens) {
      expect(BigInt(change.change)).not.toBe(0n)
      expect((await balanceOf(change.token, change.holder, after)) - (await balanceOf(change.token, change.holder, before))).toBe(BigInt(change.change))
    }
    const holders = new Set(state.tokens.map((change) => `${change.token}:${change.holder}`))
    for (const transfer of swap.tokenTransfers) {
      for (const holder of [transfer.from, transfer.to]) {
        if (/^0x0+$/.test(holder)) continue
        const moved = (await balanceOf(transfer.token, holder, after)) !== (await balanceOf(transfer.token, holder, before))
        expect(holders.has(`${transfer.token}:${holder}`)).toBe(moved)
      }
    }

    // The node's part: the sender's ether and nonce, and every slot, before and after.
    expect(state.accountsMissing).toBeNull()
    expect(state.truncated).toBe(false)
    const sender = state.accounts!.find((account) => account.address === swap.from)!
    expect(sender.nonce).toEqual({ before: swap.nonce, after: swap.nonce + 1 })
    expect(sender.balance).toEqual({
      before: BigInt(await rpc.call<Hex>('eth_getBalance', [swap.from, before])).toString(),
      after: BigInt(await rpc.call<Hex>('eth_getBalance', [swap.from, after])).toString(),
    })
    // The fee at least left the sender.
    expect(BigInt(sender.balance!.before) - BigInt(sender.balance!.after)).toBeGreaterThanOrEqual(BigInt(swap.fee))
    const withSlots = state.accounts!.filter((account) => account.storage.length > 0)
    // The pair (or pool) moved its reserves, each token its balances.
    expect(withSlots.length).toBeGreaterThanOrEqual(2)
    for (const account of withSlots) {
      for (const slot of account.storage) {
        expect(slot.before).not.toBe(slot.after)
        expect(word(await rpc.call<Hex>('eth_getStorageAt', [account.address, slot.slot, before]))).toBe(slot.before)
        expect(word(await rpc.call<Hex>('eth_getStorageAt', [account.address, slot.slot, after]))).toBe(slot.after)
      }
    }
    for (const account of state.accounts!) {
      if (!account.balance) continue
      expect(BigInt(await rpc.call<Hex>('eth_getBalance', [account.address, after])).toString()).toBe(account.balance.after)
    }
  })

  test('a hash of no transaction, or no hash, is the JSON 404', async () => {
    for (const path of [`/api/tx/0x${'ab'.repeat(32)}/state`, '/api/tx/nothing/state']) {
      const response = await fetch(`${stack.origin}${path}`)
      expect(response.status).toBe(404)
      expect(((await response.json()) as { error: string }).error).toBeString()
    }
  })
})

describe('the transaction page', () => {
  test('the API: gas parts from the block, previous and next of the sender by nonce, token events in their units', async () => {
    const swap = await aSwap()
    const block = await rpc.call<{ baseFeePerGas: Hex }>('eth_getBlockByNumber', [q(swap.blockNumber), false])
    const baseFee = BigInt(block.baseFeePerGas)
    expect(swap.baseFeePerGas).toBe(baseFee.toString())
    expect(swap.burntFee).toBe((baseFee * BigInt(swap.gasUsed)).toString())
    expect(swap.priorityFeePerGas).toBe((BigInt(swap.effectiveGasPrice) - baseFee).toString())
    expect(swap.previousTx.nonce).toBe(swap.nonce - 1)
    const previous = await stack.api<Tx>(`/tx/${swap.previousTx.hash}`)
    expect([previous.from, previous.nonce, previous.nextTx?.hash]).toEqual([swap.from, swap.nonce - 1, swap.hash])
    if (swap.nextTx) expect((await stack.api<Tx>(`/tx/${swap.nextTx.hash}`)).nonce).toBe(swap.nonce + 1)
    const tokenLog = swap.logs.find((log: Tx) => log.event?.name === 'Transfer' && log.units)
    expect(tokenLog.units.args).toEqual(['value'])
    const transfer = swap.tokenTransfers.find((row: Tx) => row.logIndex === tokenLog.logIndex)
    expect(tokenLog.units.decimals).toBe(transfer.decimals)
    // A pair's Swap is of two tokens: no units of its own.
    expect(swap.logs.find((log: Tx) => log.event?.name === 'Swap').units).toBeNull()
  })

  for (const [width, dark] of [
    [1280, false],
    [390, false],
    [1280, true],
    [390, true],
  ] as const) {
    const look = `${width}${dark ? '-dark' : ''}`
    test(`at ${width} px${dark ? ', dark' : ''}: gas, nonce neighbours, amounts in units, the state changes tab of a swap, folded init code`, async () => {
      const { page: view, errors: viewErrors, close } = width === 1280 && !dark ? { page, errors, close: async () => {} } : await openPage(stack.browser, { width, dark })
      try {
        const swap = await aSwap()
        await view.goto(`${stack.origin}/tx/${swap.hash}`)
        await expectText(view, '#tx', swap.hash)
        await expectText(view, '#tx-base-fee', 'gwei')
        await expectText(view, '#tx-burnt-fee', `${inUnits(swap.burntFee, 18, 18)} ETH`)
        const share = Math.floor((swap.gasUsed * 10_000) / swap.gas) / 100
        await expectText(view, '#tx-gas-used', `${grouped(swap.gasUsed)} of ${grouped(swap.gas)} (${share.toFixed(2)}%)`)
        await expectText(view, '#tx-type', `${swap.type} ·`)
        expect(await view.locator('#tx-previous').getAttribute('href')).toBe(`/tx/${swap.previousTx.hash}`)
        // A token's Transfer reads in its units, the raw integer on hover.
        const tokenLog = swap.logs.find((log: Tx) => log.units)
        const raw = tokenLog.event.args[Object.keys(tokenLog.event.args).find((name) => tokenLog.units.args.includes(name))!]
        const amount = view.locator('#tx-logs .token-amount').first()
        await expectText(view, '#tx-logs .token-amount', `${inUnits(raw, tokenLog.units.decimals)} ${tokenLog.units.symbol}`)
        expect(await amount.getAttribute('title')).toBe(raw)
        await screenshot(view, `tx-full-${look}`)
        await expectNoSideways(view)

        // The state changes tab.
        await view.getByRole('tab', { name: 'State changes' }).click()
        await view.waitForSelector('#tx-state-accounts')
        const state = await stack.api<State>(`/tx/${swap.hash}/state`)
        const firstToken = state.tokens[0]!
        await expectText(view, '#tx-state tbody', `${BigInt(firstToken.change) > 0n ? '+' : ''}${inUnits(firstToken.change, firstToken.decimals!)}`)
        await expectText(view, `#tx-state-accounts li[data-address="${swap.from}"] .account-nonce`, `${swap.nonce} → ${swap.nonce + 1}`)
        const slotted = state.accounts!.find((account) => account.storage.length > 0)!
        await expectText(view, `#tx-state-accounts li[data-address="${slotted.address}"] [data-slot="${slotted.storage[0]!.slot}"] .slot-after`, slotted.storage[0]!.after)
        expect(new URL(view.url()).search).toBe('?tab=state')
        await screenshot(view, `tx-state-${look}`)
        await expectNoSideways(view)

        // The sender's previous transaction, and back by its next.
        await view.getByRole('tab', { name: 'Overview' }).click()
        await view.locator('#tx-previous').click()
        await expectText(view, '#tx', swap.previousTx.hash)
        await view.locator('#tx-next').click()
        await expectText(view, '#tx', swap.hash)

        // A creation: its init code folded to its start, unfolded on a press.
        const creation = await aCreation()
        await view.goto(`${stack.origin}/tx/${creation.hash}`)
        const code = view.locator('#tx-input-hex .hex-text')
        const unfold = view.locator('#tx-input-hex').getByRole('button', { name: 'Show all' })
        await expectText(view, '#tx-input-hex', `${grouped((creation.input.length - 2) / 2)} bytes`)
        expect(await unfold.getAttribute('aria-expanded')).toBe('false')
        const folded = (await code.textContent())!
        expect(folded.length).toBeLessThan(260)
        expect(creation.input.startsWith(folded.replace(/…$/, ''))).toBe(true)
        await screenshot(view, `tx-creation-${look}`)
        await expectNoSideways(view)
        await unfold.click()
        expect(await code.textContent()).toBe(creation.input)
        expect(await view.locator('#tx-input-hex').getByRole('button', { name: 'Fold' }).getAttribute('aria-expanded')).toBe('true')
        expect(viewErrors).toEqual([])
      } finally {
        await close()
      }
    }, 60_000)
  }
})

describe('pool positions and their NFTs', () => {
  type Position = { pool: string; owner: string; tickLower: number; tickUpper: number }
  type Held = { manager: string; tokenId: string; holder: string; tickLower: number; tickUpper: number; liquidity: string }
  const manager = parseAbi([
    'function ownerOf(uint256) view returns (address)',
    'function positions(uint256) view returns (uint96, address, address, address, uint24, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256, uint256, uint128, uint128)',
  ])
  const read = async (to: string, functionName: 'ownerOf' | 'positions', tokenId: string) => {
    const data = await rpc.call<Hex>('eth_call', [{ to, data: encodeFunctionData({ abi: manager, functionName, args: [BigInt(tokenId)] }) }, 'latest'])
    return decodeFunctionResult({ abi: manager, functionName, data }) as any
  }

  test("a manager's positions name each NFT's holder as the chain does, and the pool's page links the token id", async () => {
    const dex = async <T,>(path: string) => (await (await fetch(`${stack.origin}/dex${path}`)).json()) as T
    const pool = (await dex<{ pools: Array<{ pool: string }> }>('/cl/pools')).pools[0]!.pool
    const positions = (await dex<{ positions: Position[] }>(`/cl/positions?pool=${pool}&closed=1&limit=25`)).positions
    const owners = [...new Set(positions.map((position) => position.owner))]
    const { positions: held } = await stack.api<{ positions: Held[] }>(`/positions?pool=${pool}&owners=${owners.join(',')}`)
    expect(held.length).toBeGreaterThan(0)
    for (const nft of held) {
      // The manager is an owner the pool records, and each NFT is a range the pool has.
      expect(owners).toContain(nft.manager)
      expect(positions.some((position) => position.owner === nft.manager && position.tickLower === nft.tickLower && position.tickUpper === nft.tickUpper)).toBe(true)
      expect(await read(nft.manager, 'ownerOf', nft.tokenId)).toBe(nft.holder)
      const onChain = await read(nft.manager, 'positions', nft.tokenId)
      expect([onChain[5], onChain[6], onChain[7].toString()]).toEqual([nft.tickLower, nft.tickUpper, nft.liquidity])
    }
    expect(held.some((nft) => nft.holder !== held[0]!.holder) || held.length === 1).toBe(true)

    await page.goto(`${stack.origin}/exchange/pool/${pool}`)
    const first = held[0]!
    await page.waitForSelector(`#pool-positions a[href="/nft/${first.manager}/${first.tokenId}"]`)
    for (const nft of held) {
      expect(await page.locator(`#pool-positions a[href="/nft/${nft.manager}/${nft.tokenId}"]`).count()).toBe(1)
      await expectText(page, '#pool-positions tbody', await stack.shownAs(nft.holder))
    }
    // The manager itself is no longer printed as the owner of its positions.
    const managerShown = await stack.shownAs(first.manager)
    const ownerCells = await page.locator('#pool-positions tbody tr td:first-child').allTextContents()
    expect(ownerCells.filter((text) => text.includes(managerShown))).toEqual([])
    await screenshot(page, 'pool-positions')
    expect(errors).toEqual([])
  })

  test('refuses a pool or owners that are no addresses, and too many owners', async () => {
    const pool = `0x${'12'.repeat(20)}`
    for (const query of [`pool=nothing&owners=${pool}`, `pool=${pool}`, `pool=${pool}&owners=${pool},x`, `pool=${pool}&owners=${Array(9).fill(pool).join(',')}`]) {
      const response = await fetch(`${stack.origin}/api/positions?${query}`)
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error).toBeString()
    }
    // An owner that is no collection has no NFTs.
    expect(await stack.api(`/positions?pool=${pool}&owners=${pool}`)).toEqual({ pool: `0x${'12'.repeat(20)}`, positions: [] })
  })
})

/**
 * This page's own blocks (the gas block, the state changes, the init code) are no wider than the
 * window, nor wider than their boxes. The page as a whole (the input's tuples, the logs, the
 * trace) is the layout's test.
 */
async function expectNoSideways(view: Page) {
  const wide = await view.evaluate<string[]>(`[...document.querySelectorAll('#tx-gas, #tx-state, #tx-state *, #tx-input-hex, #tx-input-hex *, .tx-tabs')]
    .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && !element.closest('.scroll'))
    .map((element) => element.tagName + '#' + element.id + '.' + element.className)`)
  expect(wide).toEqual([])
}
