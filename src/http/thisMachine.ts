/**
 * Whether a request comes straight from the machine the service runs on: no proxy forwarded it
 * (it carries neither X-Forwarded-For nor Forwarded) and its socket's peer is a loopback address,
 * or the very address the service listens on (a connection from this machine to that address
 * comes from it). The header check comes first because a proxy on the same machine makes every
 * caller's peer a loopback address; a request that claims to be forwarded is refused whatever
 * `trustedProxyHops` says, so no header a remote caller writes can make it look local.
 *
 * `peer` is the socket's peer address as the conventions normalise it (brackets, ports and the
 * IPv4-mapped prefix taken off); `listensOn` is the service's configured host.
 */
export function fromThisMachine(headers: Headers, peer: string, listensOn: string): boolean {
  if (headers.has('x-forwarded-for') || headers.has('forwarded')) return false
  return isLoopback(peer) || (!WILDCARD_HOSTS.has(listensOn) && peer === listensOn.toLowerCase().replace(/^\[(.*)\]$/, '$1'))
}

/** Hosts that mean every address of the machine: a peer is never one of them. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]'])

/** 127.0.0.0/8 and ::1. */
function isLoopback(address: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1'
}
