import { describe, expect, test } from 'bun:test'
import { NodeTimeoutError, NodeUnreachableError } from '../errors.ts'
import { answerKind, createRpc, readAnswer, type AnswerKind } from './rpc.ts'

/**
 * The answers as the nodes send them, byte for byte: Hardhat 2.29.1's node (npm `hardhat`) and
 * anvil 1.7.1, asked with curl. A method the node lacks must not read as a block it lacks, nor a
 * block it lacks (or a call that failed) as a method it lacks.
 */
const answers: Array<{ node: string; method: string; body: string; kind: AnswerKind }> = [
  {
    node: 'hardhat',
    method: 'eth_getBlockReceipts',
    body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"Method eth_getBlockReceipts is not supported","data":{"message":"Method eth_getBlockReceipts is not supported","data":{"method":"eth_getBlockReceipts","params":["0x0"]}}}}',
    kind: 'unsupported',
  },
  {
    node: 'hardhat',
    method: 'trace_block',
    body: '{"jsonrpc":"2.0","id":3,"error":{"code":-32004,"message":"Method trace_block is not supported","data":{"message":"Method trace_block is not supported","data":{"method":"trace_block","params":["0x0"]}}}}',
    kind: 'unsupported',
  },
  {
    node: 'hardhat',
    method: 'debug_traceBlockByNumber',
    body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"Method debug_traceBlockByNumber is not supported","data":{"message":"Method debug_traceBlockByNumber is not supported","data":{"method":"debug_traceBlockByNumber","params":["0x0",{"tracer":"callTracer"}]}}}}',
    kind: 'unsupported',
  },
  {
    // Hardhat has debug_traceTransaction, but not the call tracer: the call tracer is what is missing.
    node: 'hardhat',
    method: 'debug_traceTransaction',
    body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Hardhat currently only supports the default tracer, so no tracer parameter should be passed. at line 1 column 137","data":{"message":"Hardhat currently only supports the default tracer, so no tracer parameter should be passed. at line 1 column 137","data":{"method":"debug_traceTransaction","params":["0x78250cdb90963c9eb7d508df8fbb0043638b0e20cca7acc42609b4aefa5ed29d",{"tracer":"callTracer"}]}}}}',
    kind: 'unsupported',
  },
  { node: 'hardhat', method: 'eth_getBlockByNumber', body: '{"jsonrpc":"2.0","id":1,"result":null}', kind: 'absent' },
  { node: 'hardhat', method: 'eth_getBlockTransactionCountByNumber', body: '{"jsonrpc":"2.0","id":1,"result":"0x1"}', kind: 'value' },
  { node: 'anvil', method: 'eth_noSuchMethod', body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}', kind: 'unsupported' },
  { node: 'anvil', method: 'eth_getBlockReceipts', body: '{"jsonrpc":"2.0","id":1,"result":null}', kind: 'absent' },
  { node: 'anvil', method: 'trace_block', body: '{"jsonrpc":"2.0","id":1,"result":[]}', kind: 'value' },
  // The call tracer asked for a block anvil does not have: the block is missing, not the method.
  { node: 'anvil', method: 'debug_traceBlockByNumber', body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Resource not found"}}', kind: 'failed' },
  {
    node: 'anvil',
    method: 'eth_getBlockByNumber',
    body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid length 1, expected tuple variant EthRequest::EthGetBlockByNumber with 2 elements"}}',
    kind: 'failed',
  },
]

describe('what an answer says', () => {
  for (const { node, method, body, kind } of answers) {
    test(`${node}, ${method}: ${kind}`, () => {
      expect(answerKind(readAnswer(method, JSON.parse(body)))).toBe(kind)
    })
  }

  test('an answer left out of a batch is a failed call', () => {
    expect(answerKind(readAnswer('eth_getBlockByNumber', undefined))).toBe('failed')
  })
})

/** What eth_chainId is refused with. */
async function callError(url: string, options?: { timeoutMs: number }): Promise<NodeUnreachableError> {
  return createRpc(url, options)
    .call('eth_chainId')
    .then(
      () => expect.unreachable(),
      (error: NodeUnreachableError) => error,
    )
}

describe('what the transport said stays with the error', () => {
  test('a node that cannot be reached: the socket error is the cause', async () => {
    const error = await callError('http://127.0.0.1:9', { timeoutMs: 2000 })
    expect(error).toBeInstanceOf(NodeUnreachableError)
    expect(error.cause).toBeInstanceOf(Error)
    expect(error.walk((cause: unknown) => typeof (cause as { code?: unknown }).code === 'string')).not.toBeNull()
  })

  test('a node that does not answer in time: the abort is the cause', async () => {
    const silent = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>(() => {}) })
    try {
      const error = await callError(`http://127.0.0.1:${silent.port}`, { timeoutMs: 100 })
      expect(error).toBeInstanceOf(NodeTimeoutError)
      expect(error.cause).toBeInstanceOf(Error)
    } finally {
      silent.stop(true)
    }
  })

  test('an answer that is not JSON: the parser error is the cause', async () => {
    const garbled = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('<html>') })
    try {
      const error = await callError(`http://127.0.0.1:${garbled.port}`)
      expect(error).toBeInstanceOf(NodeUnreachableError)
      expect(error.cause).toBeInstanceOf(SyntaxError)
    } finally {
      garbled.stop(true)
    }
  })
})
