import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeAbiParameters, encodeEventTopics, getAddress, parseAbi, type Hex } from 'viem'
import { createRegistryCopy } from '../../src/registry/routes.ts'
import { closeSpool, openReader, openSpool } from '../../src/spool/sqlite/db.ts'
import { rollbackTo } from '../../src/spool/store.ts'
import { writeBlock, type SyntheticLog } from '../helpers/spoolBlocks.ts'
import { testContext } from '../helpers/service.ts'
import { RegistryView } from '../../src/explorer/registryView.ts'
import { SearchCatalog } from '../../src/explorer/search/catalog.ts'
import { search } from '../../src/explorer/search/search.ts'

// The catalog over a spool written through its own write path: the chain's names as their logs
// arrive, a log that does not hold what its topic says skipped, and a reorganisation undone.

const dir = mkdtempSync(join(tmpdir(), 'stack-search-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const FACTORY: Hex = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'
const NAMES: Hex = '0x9A676e781A523b5d0C0e43731313A708CB607508'
const WETH: Hex = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const LAUNCHER: Hex = `0x${'1a'.repeat(20)}`
const SENDER: Hex = `0x${'c0'.repeat(20)}`
const events = parseAbi([
  'event TokenLaunched(address indexed token, address indexed pair, address indexed creator, string name, string symbol, uint256 supply, uint256 liquidityTokens, uint256 liquidityEth, uint256 fee)',
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index)',
  'event NameRegistered(bytes32 indexed id, address indexed owner, string label, uint256 expires, uint256 fee)',
])
const strings = (...values: string[]) => encodeAbiParameters([...values.map(() => ({ type: 'string' })), { type: 'uint256' }], [...values, 1n])

function launch(token: Hex, pair: Hex, name: string, symbol: string): SyntheticLog[] {
  return [
    {
      address: FACTORY,
      topics: encodeEventTopics({ abi: events, eventName: 'PairCreated', args: { token0: token, token1: WETH } }) as Hex[],
      data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [pair, 1n]),
    },
    { address: LAUNCHER, topics: encodeEventTopics({ abi: events, eventName: 'TokenLaunched', args: { token, pair, creator: SENDER } }) as Hex[], data: strings(name, symbol) },
  ]
}
const register = (label: string): SyntheticLog => ({
  address: NAMES,
  topics: encodeEventTopics({ abi: events, eventName: 'NameRegistered', args: { id: `0x${'01'.repeat(32)}`, owner: SENDER } }) as Hex[],
  data: strings(label),
})

test('the chain names arrive with their logs, hostile data is skipped, and a reorganisation undoes them', async () => {
  const path = join(dir, 'spool.db')
  const writer = openSpool(path)
  const reader = openReader(path)
  const copy = createRegistryCopy(testContext())
  await copy.refresh()
  const registry = new RegistryView(copy)
  let version = 0
  const catalog = new SearchCatalog(sqliteDb(reader), registry, { v2Factory: FACTORY, v3Factory: null, nameRegistry: NAMES }, () => version)
  const find = async (q: string) => {
    await catalog.refresh()
    return search(sqliteDb(reader), catalog, registry, q, 50)
  }
  const moon: Hex = `0x${'aa'.repeat(20)}`
  const topic = launch(moon, `0x${'bb'.repeat(20)}`, 'x', 'x')[1]!.topics
  await writeBlock(writer, 0)
  await writeBlock(writer, 1, [
    { from: SENDER, to: LAUNCHER, logs: [...launch(moon, `0x${'bb'.repeat(20)}`, 'Moon Cat', 'MOON'), register('alice')] },
    // Under the launch's topic, data that holds no strings: an offset past the end, a length past it, bytes that are not UTF-8.
    {
      from: SENDER,
      to: LAUNCHER,
      logs: [
        { address: LAUNCHER, topics: topic, data: `0x${'00'.repeat(31)}ff` },
        { address: LAUNCHER, topics: topic, data: `0x${'0'.repeat(62)}40${'0'.repeat(64)}${'0'.repeat(60)}ffff` },
        { address: LAUNCHER, topics: topic, data: `${strings('ok', 'ok')}`.replace(/6f6b/g, 'c328') as Hex },
        { address: LAUNCHER, topics: [topic[0]!], data: strings('No Token', 'NT') },
      ],
    },
  ])
  version++
  expect(await find('MOON')).toMatchObject({
    go: `/token/${getAddress(moon)}`,
    results: [
      { kind: 'token', title: 'Moon Cat', listed: false },
      { kind: 'pair', title: 'MOON/WETH', listed: false },
    ],
  })
  expect((await find('alice')).go).toBe('/name/alice')
  expect((await find('ok')).results).toEqual([])
  expect((await find('no token')).results).toEqual([])

  // Block 1 is replaced: its names go, the new block's come.
  await rollbackTo(sqliteWriter(writer), 0)
  const sun: Hex = `0x${'cc'.repeat(20)}`
  await writeBlock(writer, 1, [{ from: SENDER, to: LAUNCHER, logs: launch(sun, `0x${'dd'.repeat(20)}`, 'Sun Dog', 'SUN') }], 1)
  version++
  expect((await find('moon')).results).toEqual([])
  expect((await find('alice')).results).toEqual([])
  expect((await find('sun')).go).toBe(`/token/${getAddress(sun)}`)
  reader.close()
  closeSpool(writer)
})
