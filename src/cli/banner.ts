import type { Listening } from '../http/serve.ts'

/** The lines a person reads when `stack dev` is up: where everything answers. */
export function devBanner(options: {
  rpcUrl: string
  wsUrl: string
  chainId: number
  blockTime: number
  services: Listening[]
  manifestPath: string
  operator: string
  /** The explorer's per-client minute (explorer.rateLimitPerMinute). */
  rateLimitPerMinute: number
}): string {
  const url = (name: string) => options.services.find((service) => service.service === name)?.url ?? '(not running)'
  const arcade = url('arcade')
  return [
    '',
    `stack dev: chain ${options.chainId} at ${options.rpcUrl} (${options.wsUrl}), a block every ${options.blockTime} s`,
    `  browse     ${url('explorer')}/`,
    `  explorer   ${url('explorer')}/api`,
    `  exchange   ${url('exchange')}`,
    `  faucet     ${url('faucet')}`,
    `  arcade     ${arcade}/api   ${arcade.replace(/^http/, 'ws')}/ws/<room>`,
    `  etherscan  ${url('etherscan')}/api   sourcify ${url('etherscan')}/sourcify`,
    `  manifest   ${options.manifestPath}`,
    '',
    // Every local client is the same loopback address: a test suite shares one minute.
    `The explorer's API answers ${options.rateLimitPerMinute} requests a minute per client, and every local client is one:`,
    '  a test suite that needs more sets explorer.rateLimitPerMinute in its config',
    '  (stack status and stack reset are not counted).',
    '',
    `WARNING: the faucet operator ${options.operator} signs with anvil's public dev key #1.`,
    '         Anyone can spend from it on any chain: never use it outside this local chain.',
    '',
    'Ctrl-C stops the services and the chain.',
    '',
  ].join('\n')
}
