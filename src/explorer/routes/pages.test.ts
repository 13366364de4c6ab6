import { expect, test } from 'bun:test'
import { publicRpc, wantsPage } from './pages.ts'

test("the node's URL is told to a wallet only when nothing in it could be a provider's key", () => {
  expect(publicRpc('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545')
  expect(publicRpc('https://rpc.example.org/')).toBe('https://rpc.example.org/')
  for (const secret of ['https://user:key@rpc.example.org', 'https://rpc.example.org/v3/0123abcd', 'https://rpc.example.org/?apikey=1', 'https://rpc.example.org/#key']) expect(publicRpc(secret)).toBeNull()
})

test("a browser's navigation is told by an Accept that names HTML, and never on the API's paths", () => {
  const asking = (accept: string | null) => new Request('http://x/', accept === null ? {} : { headers: { accept } })
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
  expect(wantsPage(asking(browser), '/nothing')).toBe(true)
  expect(wantsPage(asking('text/html'), '/charts')).toBe(true)
  expect(wantsPage(asking('application/json, text/html;q=0.5'), '/pools')).toBe(true)
  for (const accept of [null, '*/*', 'application/json', 'text/htmlx', 'application/xhtml+xml']) expect(wantsPage(asking(accept), '/nothing')).toBe(false)
  for (const path of ['/api', '/api/nothing', '/api/tx/0x12', '/dex', '/dex/nothing']) expect(wantsPage(asking(browser), path)).toBe(false)
})
