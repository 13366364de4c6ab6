import net from 'node:net'

/**
 * A TCP proxy in front of a port, to drop a connection on purpose: `cut()` closes every
 * connection and refuses new ones until `restore()`.
 */
export async function tcpProxy(targetPort: number, host = '127.0.0.1') {
  const live = new Set<net.Socket>()
  let refusing = false
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy()
    const upstream = net.connect(targetPort, host)
    for (const socket of [client, upstream]) {
      live.add(socket)
      socket.on('close', () => live.delete(socket))
      socket.on('error', () => {})
    }
    client.pipe(upstream)
    upstream.pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.address() as net.AddressInfo).port
  return {
    port,
    cut: () => {
      refusing = true
      for (const socket of live) socket.destroy()
    },
    restore: () => {
      refusing = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of live) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
