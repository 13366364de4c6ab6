import { describe, expect, test } from 'bun:test'
import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeFileAtomic } from './writeFileAtomic.ts'

// What a power cut would test cannot be seen from here: the page cache answers every read
// whether or not the disk has the bytes. These tests check what a reader sees; that the file
// and its folder are fsynced before and after the rename is in the code, and can be watched
// with `strace -f -e trace=fsync,fdatasync,rename,renameat,renameat2` around a write.

/** Reads a file through a file handle opened after the write, not through any cached one. */
function readFresh(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const bytes = Buffer.alloc(fstatSync(fd).size)
    readSync(fd, bytes, 0, bytes.length, 0)
    return bytes.toString('utf8')
  } finally {
    closeSync(fd)
  }
}

const folder = () => mkdtempSync(join(tmpdir(), 'stack-atomic-'))
const temporaries = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.tmp'))

describe('writeFileAtomic', () => {
  test('writes a new file, in a folder it creates, and leaves no temporary file', () => {
    const dir = folder()
    const path = join(dir, 'nested', 'manifest.json')
    writeFileAtomic(path, '{"chainId": 78270}\n')
    expect(readFresh(path)).toBe('{"chainId": 78270}\n')
    expect(readdirSync(join(dir, 'nested'))).toEqual(['manifest.json'])
  })

  test('replaces an existing file, bytes included', () => {
    const dir = folder()
    const path = join(dir, 'tokenlist.json')
    writeFileSync(path, 'the old content, longer than the new one')
    writeFileAtomic(path, new Uint8Array([0x6e, 0x65, 0x77]))
    expect(readFresh(path)).toBe('new')
    expect(temporaries(dir)).toEqual([])
  })

  test('a folder that is a file throws, and nothing is left behind', () => {
    const dir = folder()
    writeFileSync(join(dir, 'data'), 'a file where a folder should be')
    expect(() => writeFileAtomic(join(dir, 'data', 'manifest.json'), '{}')).toThrow(/EEXIST|ENOTDIR/)
    expect(readdirSync(dir)).toEqual(['data'])
  })

  test('a rename that fails (the target is a folder) throws and removes the temporary file', () => {
    const dir = folder()
    mkdirSync(join(dir, 'manifest.json', 'inside'), { recursive: true })
    expect(() => writeFileAtomic(join(dir, 'manifest.json'), '{}')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/)
    expect(temporaries(dir)).toEqual([])
    expect(readdirSync(join(dir, 'manifest.json'))).toEqual(['inside'])
  })
})
