/** The settings every compile of contracts/ uses; the verification of the deployed contracts states them. */
export const COMPILE_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none' },
} as const
