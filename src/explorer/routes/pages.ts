import { Elysia } from 'elysia'
import type { Peers } from '../../context.ts'
import { EXCHANGE_PROXY_PREFIX } from './exchangeProxy.ts'
import { browserBundle } from '../../browser/bundle.ts' with { type: 'macro' }

// The explorer's pages for people, on its own origin beside /api (each service is an
// /api/ mount on the origin of a web interface). Bun builds them into the executable (src/browser/bundle.ts);
// every path a page lives at answers the same shell, and the script draws the page from /api.

const bundle = browserBundle('explorer/web/main.tsx')
/** The chunks the script imports at once, fetched beside it rather than once it has been read. */
const PRELOAD = bundle.preload.map((name) => `<link rel="modulepreload" href="/${name}">`).join('\n')

/** Only the explorer's own files and answers: nothing from elsewhere runs, loads or is fetched. */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

/** The paths of the pages (EIP-3091's among them): each answers the shell. Any other is a 404: the page for a browser, else JSON. */
export const PAGE_PATHS = ['/', '/blocks', '/block/:number', '/txs', '/tx/:hash', '/address/:address', '/name/:name', '/token/:address', '/tokens', '/nfts', '/nft/*', '/minis', '/mini/:id', '/accounts', '/fees', '/exchange', '/exchange/*', '/search']

const escape = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)

/** The chain the pages are of, for the wallet the Write tab asks to switch to it (or add it). */
export type PageChain = { id: number; rpc: string | null }

/**
 * The node's URL as the pages may tell a wallet (to add the chain): none when it has credentials,
 * a path or a query, where a provider's key would be, which the pages must never show.
 */
export function publicRpc(url: string): string | null {
  const parsed = new URL(url)
  return parsed.username || parsed.password || parsed.search || parsed.hash || parsed.pathname.length > 1 ? null : url
}

/**
 * The shell of every page: `clock` is the chain head's time (microseconds) when the explorer
 * knows one, which the script takes for its clock so that the first page draws its ages at once
 * instead of after a request for the stats.
 */
function shell(faucetUrl: string | null, chain: PageChain, clock: number | null): string {
  const faucet = faucetUrl ? `<meta name="faucet" content="${escape(faucetUrl)}">` : ''
  const chainMeta = `<meta name="chain" content="${escape(JSON.stringify(chain))}">`
  const clockMeta = clock === null ? '' : `\n<meta name="chain-clock" content="${Math.trunc(clock)}">`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>Chain 78270 explorer</title>
${faucet}
${chainMeta}${clockMeta}
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
${PRELOAD}
</head>
<body>
<div id="app"><noscript>The explorer's pages need JavaScript; every figure is also at /api.</noscript></div>
</body>
</html>
`
}

const file = (body: string, type: string) => () =>
  new Response(body, { headers: { 'content-type': `${type};charset=utf-8`, 'content-security-policy': PAGE_POLICY } })

/**
 * Whether a request is a browser's navigation, which a page answers: its Accept names HTML, as
 * every browser's does for a page, and none of the API's paths (`/api/`, the exchange's `/dex/`),
 * whose every answer is JSON.
 */
export function wantsPage(request: Request, path: string): boolean {
  if (path === '/api' || path.startsWith('/api/') || path === EXCHANGE_PROXY_PREFIX || path.startsWith(`${EXCHANGE_PROXY_PREFIX}/`)) return false
  return /(^|[\s,])text\/html(\s*[;,]|\s*$)/i.test(request.headers.get('accept') ?? '')
}

/**
 * The page routes: the shell at every page path (with the faucet's address, once it listens, and
 * the chain head's time `clock` gives in microseconds), the script, its chunks and the style.
 */
export function pageRoutes(peers: Peers | undefined, chain: PageChain, clock: () => number | null = () => null) {
  const index = () => {
    const faucet = peers?.url('faucet') ?? null
    return file(shell(faucet === null ? null : `${faucet}/`, chain, clock()), 'text/html')()
  }
  const app = new Elysia({ name: 'explorer-pages' }).get('/app.js', file(bundle.script, 'text/javascript')).get('/app.css', file(bundle.style, 'text/css'))
  // The chunks the script imports when a page needs them (the contract tabs'), beside it.
  for (const [name, script] of Object.entries(bundle.chunks)) app.get(`/${name}`, file(script, 'text/javascript'))
  for (const path of PAGE_PATHS) app.get(path, index)
  /** A browser's navigation to a path that is no page: the shell, 404, which draws the 404 page. */
  const notFoundPage = (request: Request, path: string): Response | null => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !wantsPage(request, path)) return null
    const page = index()
    return new Response(page.body, { status: 404, headers: page.headers })
  }
  return { app, notFoundPage }
}
