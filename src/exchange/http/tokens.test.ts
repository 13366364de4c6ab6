import { describe, expect, test } from 'bun:test'
import { ContractFunctionExecutionError, ContractFunctionRevertedError, HttpRequestError, stringToHex, type Address, type PublicClient } from 'viem'
import { TokenBook } from './tokens.ts'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** A client that answers from a table and counts the calls; `down` makes the node unreachable. */
function fakeClient(answers: Record<string, unknown>) {
  const state = { calls: 0, down: false }
  const client = {
    readContract: async ({ functionName, abi }: { functionName: string; abi: Array<{ outputs: Array<{ type: string }> }> }) => {
      state.calls++
      if (state.down) throw new ContractFunctionExecutionError(new HttpRequestError({ url: 'http://127.0.0.1:9', details: 'refused' }), { abi: [], functionName })
      const key = `${functionName}:${abi[0]?.outputs?.[0]?.type ?? ''}`
      const answer = answers[key] ?? answers[functionName]
      if (answer === undefined) throw new ContractFunctionExecutionError(new ContractFunctionRevertedError({ abi: [], functionName }), { abi: [], functionName })
      return answer
    },
  }
  return { client: client as unknown as PublicClient, state }
}

describe('token metadata', () => {
  test('read once and kept for the life of the process', async () => {
    const { client, state } = fakeClient({ symbol: 'BX', decimals: 18 })
    const book = new TokenBook(client)
    expect(await book.get(TOKEN)).toEqual({ address: TOKEN, symbol: 'BX', decimals: 18 })
    const after = state.calls
    await book.get(TOKEN)
    await book.get(TOKEN.toLowerCase() as Address)
    expect(state.calls).toBe(after)
  })

  test('a bytes32 symbol is read as text; a token that reverts keeps null for good', async () => {
    const { client, state } = fakeClient({ 'symbol:bytes32': stringToHex('MKR', { size: 32 }), decimals: 18 })
    const book = new TokenBook(client)
    expect(await book.get(TOKEN)).toMatchObject({ symbol: 'MKR', decimals: 18 })
    const silent = new TokenBook(fakeClient({}).client)
    expect(await silent.get(TOKEN)).toEqual({ address: TOKEN, symbol: null, decimals: null })
    expect(state.calls).toBeGreaterThan(0)
  })

  test('an unreachable node gives nulls for now and is asked again after the retry delay', async () => {
    const { client, state } = fakeClient({ symbol: 'BX', decimals: 18 })
    state.down = true
    const book = new TokenBook(client, 30)
    expect(await book.get(TOKEN)).toMatchObject({ symbol: null, decimals: null })
    state.down = false
    expect(await book.get(TOKEN)).toMatchObject({ symbol: null })
    // The retry delay is a real timer of the book's: wait it out.
    await Bun.sleep(60)
    expect(await book.get(TOKEN)).toMatchObject({ symbol: 'BX', decimals: 18 })
  })
})
