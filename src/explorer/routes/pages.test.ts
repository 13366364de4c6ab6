import { expect, test } from 'bun:test'
import { publicRpc } from './pages.ts'

test("the node's URL is told to a wallet only when nothing in it could be a provider's key", () => {
  expect(publicRpc('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545')
  expect(publicRpc('https://rpc.example.org/')).toBe('https://rpc.example.org/')
  for (const secret of ['https://user:key@rpc.example.org', 'https://rpc.example.org/v3/0123abcd', 'https://rpc.example.org/?apikey=1', 'https://rpc.example.org/#key']) expect(publicRpc(secret)).toBeNull()
})
