import { describe, expect, test } from 'bun:test'
import { LastingFailures, storageProblem } from './storage.ts'

const PATH = '/data/spool.db'
const failure = (code: unknown) => Object.assign(new Error('driver text'), { code })

describe('storageProblem', () => {
  test.each([
    ['SQLITE_NOTADB', 'it is not a SQLite database', `move it away (mv ${PATH} ${PATH}.damaged)`],
    ['SQLITE_CORRUPT', 'it is damaged', 'move it away'],
    ['SQLITE_CORRUPT_INDEX', 'it is damaged', 'move it away'],
    ['SQLITE_READONLY', 'it is read-only (the file or its folder)', 'writable'],
    ['SQLITE_READONLY_DIRECTORY', 'its folder is read-only', 'writable'],
    ['SQLITE_CANTOPEN', 'it cannot be opened', 'check that its folder exists'],
    ['SQLITE_FULL', 'the disk is full', 'free some space'],
    ['ENOSPC', 'the disk is full', 'free some space'],
    ['SQLITE_IOERR_WRITE', 'a disk read or write failed (SQLITE_IOERR_WRITE', 'free some space'],
    ['EACCES', 'permission denied', 'writable'],
    ['ENOTDIR', 'its folder path runs through a file', 'data.dir'],
  ])('%s is a storage problem', (code, problem, advice) => {
    const found = storageProblem(failure(code), PATH)
    expect(found?.code).toBe(code)
    expect(found?.problem).toContain(problem)
    expect(found?.advice).toContain(advice)
  })

  test('the node, a constraint, a busy database and a JSON-RPC code are not', () => {
    for (const code of ['ConnectionRefused', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_BUSY', -32000, undefined]) {
      expect(storageProblem(failure(code), PATH)).toBeNull()
    }
    expect(storageProblem(null, PATH)).toBeNull()
  })
})

describe('LastingFailures', () => {
  test('a failure is said when it starts, when it changes, and again once the interval has passed', () => {
    const failures = new LastingFailures(1000)
    expect(failures.fail('stream:v2', 'boom', false, 0)).toBe(true)
    expect(failures.fail('stream:v2', 'boom', false, 999)).toBe(false)
    expect(failures.fail('stream:v2', 'bang', false, 1200)).toBe(true)
    expect(failures.fail('stream:v2', 'bang', false, 2100)).toBe(false)
    expect(failures.fail('stream:v2', 'bang', false, 2200)).toBe(true)
    expect(failures.message('stream:v2')).toBe('bang')
    expect(failures.storageError()).toBeNull()
  })

  test('a full disk is one line for every source, and lasts until the last source writes again', () => {
    const failures = new LastingFailures(1000)
    expect(failures.fail('spool', 'disk full', true, 0)).toBe(true)
    expect(failures.fail('stream:cl', 'disk full', true, 10)).toBe(false)
    expect(failures.storageError()).toBe('disk full')
    expect(failures.clear('spool')).toEqual({ message: 'disk full', storage: true })
    expect(failures.storageError()).toBe('disk full')
    expect(failures.clear('stream:cl')?.storage).toBe(true)
    expect(failures.storageError()).toBeNull()
    expect(failures.clear('stream:cl')).toBeUndefined()
    // Over and said: the next full disk is said at once.
    expect(failures.fail('spool', 'disk full', true, 20)).toBe(true)
  })
})
