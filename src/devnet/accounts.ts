import { privateKeyToAccount } from 'viem/accounts'

/**
 * Private keys of anvil's default dev accounts (mnemonic "test test test test test test test
 * test test test test junk"). They are public: anyone can spend from them on any chain. They are
 * used only on the local dev chain.
 */
export const ANVIL_DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
] as const

/**
 * What each dev account does. The deployer only deploys, in a fixed order, so every fresh dev
 * chain has the same contract addresses; everything else is done by the other accounts.
 */
export const devAccounts = {
  deployer: privateKeyToAccount(ANVIL_DEV_KEYS[0]),
  operator: privateKeyToAccount(ANVIL_DEV_KEYS[1]),
  treasury: privateKeyToAccount(ANVIL_DEV_KEYS[2]),
  alice: privateKeyToAccount(ANVIL_DEV_KEYS[3]),
  bob: privateKeyToAccount(ANVIL_DEV_KEYS[4]),
  carol: privateKeyToAccount(ANVIL_DEV_KEYS[5]),
}

/** The faucet operator's key on the dev chain: anvil's public dev key #1. */
export const DEV_OPERATOR_KEY = ANVIL_DEV_KEYS[1]
