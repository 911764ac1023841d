import { describe, expect, it } from 'vitest'
import { domainVersions, migrateDomains, type DomainSchema } from './domainMigrations'
import { migrate, schemaVersion } from './migrate'
import { openDatabase } from './open'

// Two toy domains in the shape of the app's: a shelf's books, and notes that refer to them.
// Old step 2 once made a column in each; each domain now has its half, both numbered 2.
const shelf: DomainSchema = {
  domain: 'shelf',
  needs: [],
  migrations: [
    {
      version: 1,
      name: 'create-books',
      legacy: 1,
      up: (db) => db.exec('CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL) STRICT'),
    },
    { version: 2, name: 'add-book-year', legacy: 2, up: (db) => db.exec('ALTER TABLE books ADD COLUMN year INTEGER') },
  ],
}
const notes: DomainSchema = {
  domain: 'notes',
  needs: ['shelf'],
  migrations: [
    {
      version: 1,
      name: 'create-notes',
      legacy: 2,
      up: (db) =>
        db.exec(
          'CREATE TABLE notes (id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES books (id), body TEXT NOT NULL) STRICT',
        ),
    },
  ],
}

const empty = () => openDatabase(':memory:', { migrations: [], label: 'test.db' }).db

describe('per-domain migrations', () => {
  it('migrate each domain in the listed order and record each one’s version', () => {
    const db = empty()
    expect(migrateDomains(db, [shelf, notes], 'test.db')).toEqual({
      from: 0,
      to: 3,
      applied: ['shelf/0001-create-books', 'shelf/0002-add-book-year', 'notes/0001-create-notes'],
    })
    expect(domainVersions(db)).toEqual(
      new Map([
        ['shelf', 2],
        ['notes', 1],
      ]),
    )
    expect(schemaVersion(db)).toBe(3)
  })

  it('carry a database of the old single list at step 1 on by the old numbers, keeping its rows', () => {
    const db = empty()
    migrate(db, [{ version: 1, name: 'create-books', up: shelf.migrations[0]!.up }], 'test.db')
    db.prepare("INSERT INTO books (title) VALUES ('Walden')").run()
    expect(migrateDomains(db, [shelf, notes], 'test.db').applied).toEqual([
      'shelf/0002-add-book-year',
      'notes/0001-create-notes',
    ])
    expect(db.prepare('SELECT title, year FROM books').all()).toEqual([{ title: 'Walden', year: null }])
  })

  it('leave every domain as it was when one step fails', () => {
    const db = empty()
    migrateDomains(db, [shelf], 'test.db')
    const broken: DomainSchema = {
      domain: 'notes',
      needs: [],
      migrations: [{ version: 1, name: 'broken', up: (d) => d.exec('ALTER TABLE nope ADD COLUMN x') }],
    }
    const more: DomainSchema = {
      ...shelf,
      migrations: [
        ...shelf.migrations,
        { version: 3, name: 'add-isbn', up: (d) => d.exec('ALTER TABLE books ADD COLUMN isbn TEXT') },
      ],
    }
    expect(() => migrateDomains(db, [more, broken], 'test.db')).toThrow(/no such table: nope/)
    expect(domainVersions(db)).toEqual(new Map([['shelf', 2]]))
    expect(db.prepare("SELECT count(*) FROM pragma_table_info('books') WHERE name = 'isbn'").pluck().get()).toBe(0)
  })

  it('refuse a list with a domain before one it needs, twice, with a gap, or missing an old step', () => {
    const db = empty()
    expect(() => migrateDomains(db, [notes, shelf], 'test.db')).toThrow(/notes needs shelf/)
    expect(() => migrateDomains(db, [shelf, shelf], 'test.db')).toThrow(/shelf is listed twice/)
    const gap = { ...shelf, migrations: [shelf.migrations[1]!] }
    expect(() => migrateDomains(db, [gap], 'test.db')).toThrow(/expected 1/)
    const lost = { ...shelf, migrations: [{ ...shelf.migrations[0]!, legacy: 2 }] }
    expect(() => migrateDomains(db, [lost], 'test.db')).toThrow(/no domain has the old step\(s\) 1/)
    expect(db.prepare('SELECT count(*) FROM sqlite_master').pluck().get()).toBe(0)
  })
})
