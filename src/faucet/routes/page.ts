import { Elysia } from 'elysia'
import style from '../page/faucet.css' with { type: 'text' }
import html from '../page/index.html' with { type: 'text' }
import { browserBundle } from '../../browser/bundle.ts' with { type: 'macro' }

// Bun's types describe an .html import as a bundle; imported as text it is the file's text.
const page = html as unknown as string

// The script is built with what it imports, unminified so that it reads as it is written.
const { script } = browserBundle('faucet/page/faucet.js', false)

/** Only the page's own files, and nothing from elsewhere, may run or load on it. */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

const file = (body: string, type: string) => () =>
  new Response(body, { headers: { 'content-type': `${type};charset=utf-8`, 'content-security-policy': PAGE_POLICY } })

/**
 * The faucet's own page, from an explicit allowlist of paths and embedded in the executable.
 * Every other path falls through to the JSON 404.
 */
export function pageRoutes() {
  const index = file(page, 'text/html')
  return new Elysia()
    .get('/', index)
    .get('/index.html', index)
    .get('/faucet.js', file(script, 'text/javascript'))
    .get('/faucet.css', file(style, 'text/css'))
}
