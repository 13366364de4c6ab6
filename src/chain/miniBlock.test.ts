import { expect, test } from 'bun:test'
import { blockAsMiniBlock } from './miniBlocks.ts'

test('on a node without mini-blocks a block is its own mini-block: its number, its time in microseconds, all its transactions', () => {
  const hash = `0x${'ab'.repeat(32)}` as const
  expect(blockAsMiniBlock({ number: 42, hash, timestamp: 1_700_000_000, txCount: 3 })).toEqual({
    number: 42,
    block: 42,
    hash,
    timestampUs: 1_700_000_000_000_000,
    txCount: 3,
  })
})
