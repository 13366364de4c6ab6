import type { ComponentType } from 'preact'
import { AccountsPage } from './accounts.tsx'
import { AddressPage } from './address.tsx'
import { BlockPage, BlocksPage } from './blocks.tsx'
import { ExchangePage } from './exchange/list.tsx'
import { ExchangePairPage } from './exchange/pair.tsx'
import { ExchangePoolPage } from './exchange/pool.tsx'
import { FeesPage } from './fees.tsx'
import { HomePage } from './home.tsx'
import { MiniPage, MinisPage } from './minis.tsx'
import { NamePage } from './name.tsx'
import { NftCollectionPage, NftItemPage, NftsPage } from './nfts.tsx'
import { SearchPage } from './search.tsx'
import { TokenPage, TokensPage } from './tokens.tsx'
import { TxPage, TxsPage } from './txs.tsx'

/** A page and the path it answers (preact-iso's patterns: `:name` for a part, `*` for the rest). */
export type PageRoute = { path: string; component: ComponentType; nav?: string }

/**
 * Every page of the explorer, in the order the router tries them; `nav` puts a page in the top
 * menu under that name. The server answers the same paths with the page shell (routes/pages.ts).
 */
export const pages: PageRoute[] = [
  { path: '/', component: HomePage },
  { path: '/blocks', component: BlocksPage, nav: 'Blocks' },
  { path: '/block/:number', component: BlockPage },
  { path: '/txs', component: TxsPage, nav: 'Transactions' },
  { path: '/tx/:hash', component: TxPage },
  { path: '/address/:address', component: AddressPage },
  { path: '/name/:name', component: NamePage },
  { path: '/tokens', component: TokensPage, nav: 'Tokens' },
  { path: '/token/:address', component: TokenPage },
  { path: '/nfts', component: NftsPage, nav: 'NFTs' },
  { path: '/nft/:address', component: NftCollectionPage },
  { path: '/nft/:address/:tokenId', component: NftItemPage },
  { path: '/minis', component: MinisPage },
  { path: '/mini/:id', component: MiniPage },
  { path: '/accounts', component: AccountsPage, nav: 'Accounts' },
  { path: '/fees', component: FeesPage, nav: 'Fees' },
  { path: '/exchange', component: ExchangePage, nav: 'Exchange' },
  { path: '/exchange/pair/:address', component: ExchangePairPage },
  { path: '/exchange/pool/:address', component: ExchangePoolPage },
  { path: '/search', component: SearchPage },
]
