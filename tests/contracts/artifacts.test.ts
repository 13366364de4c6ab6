import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createArtifactIndex } from '../../src/contracts/artifacts.ts'
import { writeForgeOut, writeHardhatArtifacts } from '../helpers/buildArtifacts.ts'
import { compileSolidity, type Compiled } from '../helpers/solidity.ts'

// The index of local build artifacts over folders written as forge and hardhat write them, from
// real solc-js compiles; the code "on chain" is the runtime code with its immutables written in,
// as a constructor leaves it (tests/contracts/devStack.test.ts matches codes deployed on anvil).

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {Steps} from "./Steps.sol";
contract Counter {
    uint256 public immutable step;
    uint256 public count;
    constructor(uint256 step_) { step = step_; }
    function bump() external { count = Steps.next(count, step); }
}
`
const STEPS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
library Steps {
    function next(uint256 value, uint256 step) internal pure returns (uint256) { return value + step; }
}
`
const LINKED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
library Far {
    function twice(uint256 value) public pure returns (uint256) { return value * 2; }
}
contract UsesFar {
    function go(uint256 value) external pure returns (uint256) { return Far.twice(value); }
}
`
const GREETER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Greeter {
    string public greeting = "hello";
    function set(string calldata value) external { greeting = value; }
}
`

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'stack-artifacts-'))
  folders.push(folder)
  return folder
}

/** The runtime code as a constructor leaves it (hex): each immutable's bytes set to `fill`. */
function onChain(contract: Compiled, fill = 0x42): string {
  const code = new Uint8Array(Buffer.from(contract.deployedBytecode.slice(2), 'hex'))
  for (const spots of Object.values(contract.immutableReferences)) for (const { start, length } of spots) code.fill(fill, start, start + length)
  return `0x${Buffer.from(code).toString('hex')}`
}

const counterBuild = compileSolidity({ 'src/Counter.sol': COUNTER, 'src/Steps.sol': STEPS })
const counter = counterBuild.contracts['src/Counter.sol:Counter']!

describe('forge out/', () => {
  const out = join(tempFolder(), 'out')
  writeForgeOut(out, counterBuild)
  const index = createArtifactIndex([out])

  test('a code with its immutables written in matches its artifact exactly, with the ABI and the sources of its compile', () => {
    const found = index.match(onChain(counter))
    expect(found?.name).toBe('Counter')
    expect(found?.match).toBe('exact_match')
    expect(found?.path).toBe(join(out, 'Counter.sol', 'Counter.json'))
    expect(found?.abi.some((item) => item.type === 'function' && item.name === 'bump')).toBe(true)
    expect(found?.sources).toEqual({ 'src/Counter.sol': COUNTER, 'src/Steps.sol': STEPS })
  })

  test('the same contract compiled with another comment (another metadata hash) is a match, not an exact one', () => {
    const other = compileSolidity({ 'src/Counter.sol': `${COUNTER}// changed\n`, 'src/Steps.sol': STEPS }).contracts['src/Counter.sol:Counter']!
    expect(other.deployedBytecode).not.toBe(counter.deployedBytecode)
    expect(index.match(onChain(other, 0x07))?.match).toBe('match')
  })

  test('another code matches nothing, and neither does a code of the same length with other bytes', () => {
    const code = onChain(counter)
    const changed = `${code.slice(0, 22)}${code[22] === 'f' ? 'e' : 'f'}${code.slice(23)}`
    expect(changed.length).toBe(code.length)
    expect(index.match(changed)).toBeNull()
    expect(index.match(onChain(compileSolidity({ 'Greeter.sol': GREETER }).contracts['Greeter.sol:Greeter']!))).toBeNull()
  })

  test('without build info the artifact still matches, with no sources', () => {
    const bare = join(tempFolder(), 'out')
    writeForgeOut(bare, counterBuild, { buildInfo: false })
    const found = createArtifactIndex([bare]).match(onChain(counter))
    expect(found?.name).toBe('Counter')
    expect(found?.sources).toBeNull()
  })

  test("a library's address linked into the code is masked like an immutable", () => {
    const build = compileSolidity({ 'src/Linked.sol': LINKED })
    const folder = join(tempFolder(), 'out')
    writeForgeOut(folder, build)
    const unlinked = build.contracts['src/Linked.sol:UsesFar']!.deployedBytecode
    expect(unlinked).toContain('__$')
    const linked = unlinked.replace(/__\$[0-9a-f]{34}\$__/g, 'cafecafecafecafecafecafecafecafecafecafe')
    const found = createArtifactIndex([folder]).match(linked)
    expect(found?.name).toBe('UsesFar')
    expect(found?.match).toBe('exact_match')
  })
})

describe('hardhat artifacts/', () => {
  test('matches with the immutable references of the build info, and its sources', () => {
    const artifacts = join(tempFolder(), 'artifacts')
    writeHardhatArtifacts(artifacts, counterBuild)
    const found = createArtifactIndex([artifacts]).match(onChain(counter))
    expect(found?.name).toBe('Counter')
    expect(found?.match).toBe('exact_match')
    expect(found?.path).toBe(join(artifacts, 'src/Counter.sol', 'Counter.json'))
    expect(found?.sources).toEqual({ 'src/Counter.sol': COUNTER, 'src/Steps.sol': STEPS })
  })

  test("a build info of several contracts gives each only its own compile's sources, from its metadata", () => {
    const artifacts = join(tempFolder(), 'artifacts')
    const build = compileSolidity({ 'contracts/Counter.sol': COUNTER, 'contracts/Steps.sol': STEPS, 'contracts/Greeter.sol': GREETER })
    writeHardhatArtifacts(artifacts, build)
    const index = createArtifactIndex([artifacts])
    expect(index.match(onChain(build.contracts['contracts/Counter.sol:Counter']!))?.sources).toEqual({ 'contracts/Counter.sol': COUNTER, 'contracts/Steps.sol': STEPS })
    expect(index.match(onChain(build.contracts['contracts/Greeter.sol:Greeter']!))?.sources).toEqual({ 'contracts/Greeter.sol': GREETER })
  })
})

describe('a folder that holds more than artifacts', () => {
  test('malformed files and references are passed over without harm', () => {
    const out = join(tempFolder(), 'out')
    writeForgeOut(out, counterBuild)
    const path = join(out, 'Counter.sol', 'Counter.json')
    const artifact = JSON.parse(readFileSync(path, 'utf8'))
    artifact.deployedBytecode.immutableReferences = { 1: [{ start: -5, length: 1e9 }], 2: 'nonsense', 3: [{ start: 'x' }] }
    writeFileSync(path, JSON.stringify(artifact))
    writeFileSync(join(out, 'notes.json'), '{"abi": 3}')
    writeFileSync(join(out, 'broken.json'), '{')
    writeFileSync(join(out, 'odd.json'), JSON.stringify({ abi: [], deployedBytecode: { object: '0xzz' } }))
    const index = createArtifactIndex([out])
    // the references were nonsense: its immutables are not masked, so only the code as compiled matches
    expect(index.match(onChain(counter))).toBeNull()
    expect(index.match(counter.deployedBytecode)?.name).toBe('Counter')
    // Counter and the Steps library of its compile; none of the other files
    expect(index.size()).toBe(2)
  })
})

describe('a build while it runs', () => {
  test('a new artifact is seen once the debounce is over; a half-written one is skipped until it is whole', () => {
    const out = join(tempFolder(), 'out')
    const clock = { now: 1000 }
    const index = createArtifactIndex([out], { debounceMs: 500, now: () => clock.now })
    const greeterBuild = compileSolidity({ 'src/Greeter.sol': GREETER })
    const greeter = onChain(greeterBuild.contracts['src/Greeter.sol:Greeter']!)
    // The folder is not there yet: nothing, and no error.
    expect(index.match(greeter)).toBeNull()
    writeForgeOut(out, greeterBuild)
    expect(index.match(greeter)).toBeNull()
    clock.now += 600
    expect(index.match(greeter)?.name).toBe('Greeter')
    expect(index.size()).toBe(1)

    // A second build: one file written halfway, as a build caught mid-write leaves it.
    writeForgeOut(out, counterBuild)
    const path = join(out, 'Counter.sol', 'Counter.json')
    const text = readFileSync(path, 'utf8')
    writeFileSync(path, text.slice(0, text.length / 2))
    clock.now += 600
    expect(index.match(onChain(counter))).toBeNull()
    expect(index.match(greeter)?.name).toBe('Greeter')
    writeFileSync(path, text)
    // The same size and a later time: the size alone would not tell.
    utimesSync(path, new Date(), new Date(Date.now() + 5000))
    clock.now += 600
    expect(index.match(onChain(counter))?.name).toBe('Counter')
  })

  test('a removed artifact is forgotten', () => {
    const out = join(tempFolder(), 'out')
    writeForgeOut(out, counterBuild)
    const index = createArtifactIndex([out], { debounceMs: 0 })
    expect(index.match(onChain(counter))?.name).toBe('Counter')
    rmSync(join(out, 'Counter.sol'), { recursive: true })
    expect(index.match(onChain(counter))).toBeNull()
  })

  test('the folders are read within bounds: no more files than the cap', () => {
    const out = join(tempFolder(), 'out')
    writeForgeOut(out, counterBuild, { buildInfo: false })
    writeForgeOut(out, compileSolidity({ 'src/Greeter.sol': GREETER }), { buildInfo: false })
    expect(createArtifactIndex([out]).size()).toBe(0)
    const all = createArtifactIndex([out])
    all.refresh()
    expect(all.size()).toBe(3)
    const capped = createArtifactIndex([out], { maxFiles: 1 })
    capped.refresh()
    expect(capped.size()).toBe(1)
  })
})
