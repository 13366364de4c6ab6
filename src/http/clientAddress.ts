/**
 * The caller's address as the service sees it: with no trusted proxy, the socket's peer;
 * behind `hops` trusted proxies that each append to X-Forwarded-For, the entry `hops` places
 * from the right-hand end. The left-hand entries are whatever the client wrote, so they are
 * never used while the chain is long enough. Behind a proxy that does not append, every caller
 * shares the proxy's address.
 */
export function clientAddress(forwardedFor: string | null, socketAddress: string | null, hops: number): string {
  const peer = normalise(socketAddress ?? '') || 'unknown'
  if (hops <= 0 || !forwardedFor) return peer
  const chain = forwardedFor
    .split(',')
    .map((entry) => normalise(entry))
    .filter((entry) => entry !== '')
  if (chain.length === 0) return peer
  return chain[Math.max(0, chain.length - hops)]!
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/

function normalise(address: string): string {
  let text = address.trim()
  // A plain IPv4 address (the socket's peer on every request of a local stack): nothing to undo.
  if (IPV4.test(text)) return text
  // [::1]:8080 → ::1, 203.0.113.7:8080 → 203.0.113.7, ::ffff:127.0.0.1 → 127.0.0.1
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)
  if (bracketed) text = bracketed[1]!
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'))
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(text)) text = text.slice(7)
  return text.toLowerCase()
}
