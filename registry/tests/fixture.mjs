// @ts-check
/**
 * Shared by the validator's tests: a throw-away copy of the seeded registry, small edits to it,
 * the validator run as a separate process (exactly as contributors and CI run it), and a PNG
 * encoder for logos of any size.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync } from 'node:zlib'

/** The registry folder of this repository. */
export const REGISTRY = fileURLToPath(new URL('..', import.meta.url))
export const VALIDATE = join(REGISTRY, 'scripts', 'validate.mjs')
export const RAW = 'https://raw.githubusercontent.com/stack-chain/registry/main/testnet/logos'

/** @type {string[]} */
const created = []

/**
 * A copy of the seeded network folders in a new temporary folder, removed by `removeFixtures`.
 * @param {string} [parent] a folder to create it in (for a registry inside a larger git repo)
 */
export function copyRegistry(parent) {
  const dir = parent ? join(parent, 'registry') : mkdtempSync(join(tmpdir(), 'registry-'))
  if (!parent) created.push(dir)
  for (const folder of ['testnet', 'mainnet']) cpSync(join(REGISTRY, folder), join(dir, folder), { recursive: true })
  return dir
}

/** A new empty temporary folder, removed by `removeFixtures`. */
export function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'registry-'))
  created.push(dir)
  return dir
}

export function removeFixtures() {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/**
 * Reads a JSON file of `dir`, lets `change` edit it in place, writes it back.
 * @param {string} dir @param {string} file @param {(json: any) => void} change
 */
export function editJson(dir, file, change) {
  const path = join(dir, file)
  const json = JSON.parse(readFileSync(path, 'utf8'))
  change(json)
  writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`)
}

/**
 * Runs the validator on `dir` with the current runtime (node or bun).
 * @param {string} dir @param {string[]} [args]
 * @returns {{ code: number | null, output: string }}
 */
export function validate(dir, args = []) {
  const env = { ...process.env }
  // A test run from inside a git hook must not point the validator's git at the outer repo.
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name]
  const result = spawnSync(process.execPath, [VALIDATE, dir, ...args], { encoding: 'utf8', env })
  return { code: result.status, output: `${result.stdout}${result.stderr}` }
}

/**
 * A valid, complete PNG of the given size: RGBA, one opaque colour.
 * @param {number} width @param {number} height
 */
export function png(width, height) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 6, 0, 0, 0], 8) // 8 bits, RGBA, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0xff)])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** @param {string} type @param {Buffer} data */
function pngChunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** @param {Uint8Array} bytes */
function crc32(bytes) {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

/** A plain square SVG drawing, with `extra` markup inside. @param {string} [extra] */
export function svg(extra = '') {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256"><circle cx="128" cy="128" r="120" fill="#123456"/>${extra}</svg>\n`
}
