import { Elysia } from 'elysia'
import { erc20Abi, type Address, type Hex } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { checksum, parseAddress } from '../../eth/address.ts'
import { blob, hex } from '../../eth/bytes.ts'
import { decimal, quantityOrNull } from '../../eth/quantity.ts'
import { valueOf, viewCall, viewResult } from '../node.ts'
import { reverseCall, reverseResult } from '../names.ts'
import { page } from '../paging.ts'
import { addressTransactions } from '../read/accounts.ts'
import { accountCounts, contractCreation, contractsCreatedBy, rankedAccounts, tallyTotals } from '../read/tally.ts'
import { nftsHeld } from '../read/holdings.ts'
import { addressTransfers, tokensReceived, transferCounts } from '../read/transfers.ts'
import { TOKEN_META_AGE_MS } from '../probes.ts'
import { tokenKind } from '../read/tokens.ts'
import { accountRow, tokenMetaOf, transferRow, txSummary } from '../rows.ts'
import { txHashes } from '../../spool/read.ts'

/** The bytecode is cut to 400 hex characters, with an ellipsis. */
export const BYTECODE_SHOWN = 400
/** The contracts an address created that its object lists, oldest first. */
const CREATED_SHOWN = 100

const tokenStandard = (kind: number | null) => (kind === 20 ? ('erc20' as const) : kind === 721 ? ('erc721' as const) : kind === 1155 ? ('erc1155' as const) : null)

export function truncateBytecode(code: Hex): string {
  const digits = code.slice(2)
  return digits.length > BYTECODE_SHOWN ? `0x${digits.slice(0, BYTECODE_SHOWN)}…` : code
}

/** `/accounts` ({total, accounts} by transaction count) and `/address/{address}`. */
export function accountRoutes(explorer: Explorer) {
  const { db, registry, node } = explorer
  const { nameRegistry } = explorer.contracts

  /** A contract or creator from the tally with the hash of its transaction. */
  const contractRef = (contract: Uint8Array, txHash: Uint8Array | undefined) => {
    const checksummed = checksum(contract)
    return { address: checksummed, label: registry.labelName(checksummed), txHash: hex(txHash) }
  }

  const detail = async (address: Address, query: Record<string, unknown>) => {
    const paging = page(query)
    const bytes = blob(address)
    const counts = await accountCounts(db, bytes)
    const creation = await contractCreation(db, bytes)
    const created = await contractsCreatedBy(db, bytes, CREATED_SHOWN)
    // The transactions that created it and what it created, looked up at once.
    const hashes = await txHashes(db, [...(creation ? [creation.txId] : []), ...created.map((entry) => entry.txId)])

    const tokenTransfers = await addressTransfers(db, bytes, true, paging)
    const transactions = await addressTransactions(db, bytes, creation?.txId ?? null, paging)
    const nameMethod = await explorer.known.namer(transactions.map((tx) => tx.to))
    const held = (await nftsHeld(db, bytes)).map((holding) => ({
      token: checksum(holding.token),
      tokenId: holding.tokenId,
      amount: holding.amount,
      standard: holding.kind === 1155 ? ('erc1155' as const) : ('erc721' as const),
    }))

    // Live: balance, nonce, code, the token balances, the name the address goes by (its reverse
    // record), the probes of unlisted tokens (those it holds and those its transfers show) and
    // the token URIs of the NFTs it holds not resolved yet, one batch.
    const tokens = (await tokensReceived(db, bytes)).map((token) => checksum(token))
    const shown = [...tokens, ...tokenTransfers.map((transfer) => checksum(transfer.token))]
    const probes = explorer.probes.plan(shown.filter((token) => !registry.token(token)), TOKEN_META_AGE_MS)
    const uris = explorer.metadata.plan(held)
    const nameAt = 3 + tokens.length
    const own = [
      { method: 'eth_getBalance', params: [address, 'latest'] },
      { method: 'eth_getTransactionCount', params: [address, 'latest'] },
      { method: 'eth_getCode', params: [address, 'latest'] },
      ...tokens.map((token) => viewCall(token, erc20Abi, 'balanceOf', [address])),
      ...(nameRegistry ? [reverseCall(nameRegistry, address)] : []),
    ]
    // The pairs among the tokens it holds are named by their own tokens (their symbols probed, with the rest, when unlisted).
    const exchange = await explorer.exchange.current()
    const ownPool = exchange.pool(address)
    const pairTokens = exchange.unlistedTokens([...tokens, address], registry).filter((token) => !shown.some((other) => other.toLowerCase() === token.toLowerCase()))
    const pairProbes = explorer.probes.plan(pairTokens, TOKEN_META_AGE_MS)
    const results = await node.batch([...own, ...probes.calls, ...uris.calls, ...pairProbes.calls])
    const probed = probes.read(results, own.length)
    uris.read(results, own.length + probes.calls.length)
    const pools = exchange.names([...tokens, address], registry, new Map([...probed, ...pairProbes.read(results, own.length + probes.calls.length + uris.calls.length)]))
    const balance = valueOf<Hex>(results, 0)
    const nonce = valueOf<Hex>(results, 1)
    const code = valueOf<Hex>(results, 2)
    const live = results !== null
    const tokenMeta = tokenMetaOf(registry, probed)

    const holdings = tokens
      .map((token, index) => {
        const listed = registry.token(token)
        const { symbol, decimals, verified } = tokenMeta(token)
        const balance = viewResult<bigint>(results, 3 + index, erc20Abi, 'balanceOf')
        return {
          token,
          name: listed?.name ?? probed.get(token.toLowerCase())?.name ?? null,
          symbol,
          decimals,
          logoURI: listed?.logoURI ?? null,
          verified,
          balance: balance === null ? null : balance.toString(),
          pool: pools.get(token.toLowerCase()) ?? null,
        }
      })
      // With the node answering, a token spent to nothing is no holding; without it, every
      // candidate stays, its balance unknown.
      .filter((holding) => !live || holding.balance !== '0')

    const nfts = held.map((holding) => {
      const item = explorer.metadata.get(holding)
      return { token: holding.token, tokenLabel: registry.labelName(holding.token), standard: holding.standard, tokenId: holding.tokenId, amount: holding.amount, tokenURI: item?.tokenURI ?? null, metadata: item?.metadata ?? null }
    })

    return {
      address,
      label: registry.label(address),
      balance: decimal(balance),
      nonce: quantityOrNull(nonce),
      // Whether code lives there is read from the node; without it, from contracts seen created.
      contract: code !== null ? code !== '0x' : creation !== null ? true : null,
      bytecode: code === null || code === '0x' ? null : truncateBytecode(code),
      bytecodeSize: code === null ? null : (code.length - 2) / 2,
      creator: creation ? contractRef(creation.creator, hashes.get(creation.txId)) : null,
      createdContracts: created.map(({ contract, txId }) => contractRef(contract, hashes.get(txId))),
      counts: { transactions: counts.sent + counts.received - counts.self, sent: counts.sent, received: counts.received, ...(await transferCounts(db, bytes)) },
      tokens: holdings,
      nfts,
      // What else the address is: a token (its standard, from the transfers it logged), a pair or pool of the exchange.
      token: tokenStandard(await tokenKind(db, bytes)),
      pool: ownPool ? { kind: ownPool.kind, name: pools.get(address.toLowerCase()) ?? null } : null,
      // The name-service record of the name the address goes by: null with no name service, no
      // reverse record (or one whose name expired or resolves elsewhere), or the node away.
      name: nameRegistry ? reverseResult(results, nameAt) : null,
      transactions: transactions.map((tx) => txSummary(tx, registry, nameMethod)),
      tokenTransfers: tokenTransfers.map((transfer) => transferRow(transfer, registry, tokenMeta)),
      nftTransfers: (await addressTransfers(db, bytes, false, paging)).map((transfer) => transferRow(transfer, registry)),
    }
  }

  return new Elysia({ name: 'explorer-accounts' })
    .get('/accounts', ({ query }) => {
      const paging = page(query)
      return explorer.lists.answer(`accounts:${paging.limit}:${paging.offset}`, async () => {
        const total = (await tallyTotals(db)).accounts
        // Past the last account there is nothing to walk the index for.
        const accounts = paging.offset >= total ? [] : await rankedAccounts(db, paging)
        return { total, accounts: accounts.map((account) => accountRow(account, registry)) }
      })
    })
    .get('/address/:address', ({ params, query }) => {
      const address = parseAddress(params.address)
      if (!address) throw new NotFoundError('not an address')
      const { limit, offset } = page(query)
      // Cached a few seconds under a key that includes the paging.
      return explorer.answers.answer(`address:${address}:${limit}:${offset}`, () => detail(address, query))
    })
}
