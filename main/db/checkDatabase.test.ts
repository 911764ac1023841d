import { mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { checkDatabase } from './checkDatabase'

let dir: string | null = null
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = null
})

/** A database of `rows` rows of 200 characters, closed, in a folder of its own. */
function database(rows: number): string {
  dir = mkdtempSync(join(tmpdir(), 'loomverse-check-'))
  const file = join(dir, 'data.db')
  const db = new Database(file)
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)')
  db.pragma('user_version = 7')
  const insert = db.prepare('INSERT INTO notes (text) VALUES (?)')
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`note ${i} `.padEnd(200, 'x'))
  }).immediate()
  db.close()
  return file
}

describe('checking a database', () => {
  it('answers ok with its schema version, and the app keeps answering while SQLite checks', async () => {
    const file = database(20_000)
    // A check on the main thread would return before any other turn of the event loop ran.
    let turns = 0
    let checking = true
    const spin = () => {
      turns++
      if (checking) setImmediate(spin)
    }
    setImmediate(spin)
    const check = await checkDatabase(file, 'full')
    checking = false
    expect(check).toEqual({ ok: true, userVersion: 7, problem: null })
    expect(turns).toBeGreaterThan(0)
  })

  it('names what SQLite found in a damaged file, and a file that is no database', async () => {
    const file = database(5_000)
    // Scribble over the middle of the table's pages.
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, 64 * 1024)
    closeSync(fd)
    const damaged = await checkDatabase(file, 'quick')
    expect(damaged.ok).toBe(false)
    expect(damaged.problem).toBeTruthy()

    const notDb = join(dir!, 'notes.txt')
    writeFileSync(notDb, 'just some text, long enough to be read as a header '.repeat(10))
    const refused = await checkDatabase(notDb, 'full')
    expect(refused).toMatchObject({ ok: false, userVersion: null })
    expect(refused.problem).toMatch(/not a database|does not open/)
  })
})
