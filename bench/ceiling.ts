// The ceiling of an HTTP bench: a bare Bun.serve answering each recorded path with the recorded
// status, headers and bytes, nothing else. The harness runs it in a process of its own
// (`bun bench/ceiling.ts FILE`, FILE holding the recorded answers) and reads its port from the
// first line it prints.
import { readFileSync } from 'node:fs'
import type { Recorded } from './harness.ts'

const recorded = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Recorded[]
const answers = new Map(
  recorded.map((answer) => [answer.path, { body: Buffer.from(answer.body, 'base64'), init: { status: answer.status, headers: answer.headers } }]),
)
const only = recorded.length === 1 ? answers.get(recorded[0]!.path)! : null
const missing = { status: 404 }

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request) => {
    const answer = only ?? answers.get(request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2)))
    return answer ? new Response(answer.body, answer.init) : new Response(null, missing)
  },
})
console.log(server.port)
