// The browser's wallet (EIP-1193's injected `window.ethereum`): the Write tab asks it for an
// account, for this chain, and to send; the page never sees a key.

export type Eip1193 = { request: (args: { method: string; params?: unknown[] }) => Promise<unknown> }

/** The chain the pages are of, as the server's shell says it (routes/pages.ts). */
export type ChainInfo = { id: number; rpc: string | null }

export function chainInfo(): ChainInfo {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="chain"]')?.content
  try {
    const parsed = meta ? (JSON.parse(meta) as Partial<ChainInfo>) : {}
    return { id: typeof parsed.id === 'number' ? parsed.id : 78270, rpc: typeof parsed.rpc === 'string' ? parsed.rpc : null }
  } catch {
    return { id: 78270, rpc: null }
  }
}

export function injectedWallet(): Eip1193 | null {
  const candidate = (window as { ethereum?: unknown }).ethereum
  return candidate && typeof (candidate as Eip1193).request === 'function' ? (candidate as Eip1193) : null
}

/** What a wallet's refusal means, in words (EIP-1193's and EIP-1474's codes). */
export function walletMessage(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: number; message?: string }
  if (code === 4001) return 'You declined the request in your wallet.'
  if (code === 4100) return 'The wallet has not allowed this site to use the account: connect first.'
  if (code === 4200) return 'The wallet does not support this request.'
  if (code === 4900 || code === 4901) return 'The wallet is not connected to a chain.'
  if (code === -32002) return 'The wallet is already asking you something: answer it there first.'
  return message ? `The wallet said: ${message}` : 'The wallet refused the request.'
}

const hexId = (id: number) => `0x${id.toString(16)}`

/** Asks the wallet for its accounts (a prompt the first time); the first is the one that sends. */
export async function connect(wallet: Eip1193): Promise<string> {
  const accounts = (await wallet.request({ method: 'eth_requestAccounts' })) as string[]
  const account = accounts[0]
  if (!account) throw new Error('The wallet gave no account.')
  return account
}

/** Puts the wallet on `chain`: switches to it, or adds it first when the wallet does not know it (4902). */
export async function switchChain(wallet: Eip1193, chain: ChainInfo): Promise<void> {
  const current = (await wallet.request({ method: 'eth_chainId' })) as string
  if (Number.parseInt(current, 16) === chain.id) return
  try {
    await wallet.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hexId(chain.id) }] })
  } catch (error) {
    if ((error as { code?: number }).code !== 4902 || !chain.rpc) throw error
    await wallet.request({
      method: 'wallet_addEthereumChain',
      params: [{ chainId: hexId(chain.id), chainName: `Chain ${chain.id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: [chain.rpc] }],
    })
  }
}

/** Sends a transaction from `from` through the wallet, which signs it: its hash. */
export async function send(wallet: Eip1193, tx: { from: string; to: string; data: string; value: bigint }): Promise<string> {
  const params = { from: tx.from, to: tx.to, data: tx.data, ...(tx.value > 0n ? { value: `0x${tx.value.toString(16)}` } : {}) }
  return (await wallet.request({ method: 'eth_sendTransaction', params: [params] })) as string
}
