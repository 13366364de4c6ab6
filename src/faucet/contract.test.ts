import { expect, test } from 'bun:test'
import { erc20Abi, type Abi } from 'viem'
import Faucet from '../../contracts/out/Faucet.json' with { type: 'json' }
import { faucetAbi, tokenAbi } from './contract.ts'

type AbiFunction = Extract<Abi[number], { type: 'function' }>
type AbiError = Extract<Abi[number], { type: 'error' }>

const signature = (item: AbiFunction | AbiError) => `${item.name}(${item.inputs.map((input) => input.type).join(',')})`

test('every function and error the service uses is in the compiled faucet contract, with the same types', () => {
  const compiled = new Map(
    (Faucet.abi as Array<AbiFunction | AbiError>)
      .filter((item) => item.type === 'function' || item.type === 'error')
      .map((item) => [signature(item), item]),
  )
  for (const item of faucetAbi) {
    const match = compiled.get(signature(item))
    expect(match, signature(item)).toBeDefined()
    if (item.type === 'function') expect((match as AbiFunction).outputs.map((output) => output.type)).toEqual(item.outputs.map((output) => output.type))
  }
})

test('the token reads are standard ERC-20', () => {
  for (const item of tokenAbi) {
    expect(erc20Abi.some((standard) => standard.type === 'function' && standard.name === item.name)).toBe(true)
  }
})
