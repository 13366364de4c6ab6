// Types of sweep.mjs for the main project's TypeScript (tests/registry/keccak.test.ts).
export function randomBytes(length: number, seed: number): Uint8Array
export function sweepInputs(): Uint8Array[]
export function boundaryInputs(): Uint8Array[]
export function addressInputs(): string[]
export function joined(digests: string[]): Uint8Array
export const SWEEP_DIGEST: `0x${string}`
export const BOUNDARY_DIGEST: `0x${string}`
export const CHECKSUM_DIGEST: `0x${string}`
