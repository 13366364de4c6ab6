// Run by .ci/run after a failed suite: each failed test's file, name and message, read from the
// JUnit file `bun test` wrote beside its usual output, printed last so that the end of the run's
// output says what failed and why (the usual output says it where each file ran).
import { readFileSync } from 'node:fs'

const MAX_LINES = 40
const file = process.argv[2]!
let xml: string
try {
  xml = readFileSync(file, 'utf8')
} catch {
  console.log(`(no test report at ${file}: the suite stopped before it was written)`)
  process.exit(0)
}
const unescape = (text: string) => text.replace(/&#10;/g, '\n').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
const attribute = (tag: string, name: string) => unescape(new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? '')

let failed = 0
for (const suite of xml.matchAll(/<testsuite\s[^>]*>[\s\S]*?<\/testsuite>/g)) {
  const suiteFile = attribute(suite[0].slice(0, suite[0].indexOf('>')), 'file')
  for (const testCase of suite[0].matchAll(/<testcase\s([^>]*)>\s*<failure\s([^>]*)>([\s\S]*?)<\/failure>/g)) {
    failed++
    const name = attribute(` ${testCase[1]}`, 'name')
    const lines = unescape(testCase[3]!).trimEnd().split('\n')
    console.log(`\n--- failed: ${suiteFile} > ${name}`)
    console.log(lines.slice(0, MAX_LINES).join('\n'))
    if (lines.length > MAX_LINES) console.log(`(${lines.length - MAX_LINES} more lines)`)
  }
}
console.log(`\n${failed} failed test${failed === 1 ? '' : 's'} in the report`)
