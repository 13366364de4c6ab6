import type { ComponentType } from 'preact'
import { AddressPage } from './address.tsx'
import { BlockPage, BlocksPage } from './blocks.tsx'
import { HomePage } from './home.tsx'
import { NamePage } from './name.tsx'
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
]
