import { copyFileSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppError } from '@shared/errors'
import { useTempHome } from '../tests/support/tempHome'
import { appSchema } from './appSchema'
import tables from './tables.json'
import { domainVersions, migrateDomains, totalSteps } from './db/domainMigrations'
import { schemaVersion } from './db/migrate'
import { openDatabase, openExisting, type Db } from './db/open'

// Data folders made by the release before each domain owned its migrations (one list,
// `PRAGMA user_version`): tests/support/previousRelease holds its loomverse.db at its newest
// step (38) and one left at step 30.
const previousRelease = join(import.meta.dirname, '../tests/support/previousRelease')

/** Every table, index and trigger, as SQLite keeps its definition (order of creation aside). */
function schemaOf(db: Db): string[] {
  return (
    db
      .prepare(
        "SELECT type || ' ' || name || ': ' || coalesce(sql, '') AS line FROM sqlite_master WHERE tbl_name <> 'schema_versions'",
      )
      .pluck()
      .all() as string[]
  ).sort()
}

/** Every row of every ordinary table (FTS's own tables aside), table by table. */
function rowsOf(db: Db): Record<string, unknown[]> {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'nodes_fts%' AND name <> 'schema_versions' ORDER BY name",
    )
    .pluck()
    .all() as string[]
  return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all()]))
}

function freshSchema(): string[] {
  const { db } = openDatabase(':memory:', { domains: appSchema, label: 'loomverse.db' })
  const schema = schemaOf(db)
  db.close()
  return schema
}

const newestVersions = () => new Map(appSchema.map((s) => [s.domain, s.migrations.length]))

/** The steps added since that release, which each of its data folders lacks. */
const SINCE_RELEASE = ['graph/0017-add-root-alternatives', 'graph/0018-log-root-alternatives']

describe('loomverse.db of the previous release', () => {
  const home = useTempHome()

  function copyOf(name: string): { file: string; before: { schema: string[]; rows: Record<string, unknown[]> } } {
    const file = join(home(), 'loomverse.db')
    copyFileSync(join(previousRelease, name), file)
    const db = openExisting(file, { readonly: true })
    const before = { schema: schemaOf(db), rows: rowsOf(db) }
    db.close()
    return { file, before }
  }

  it('is recognised at its newest step and given per-domain versions, with only the steps added since run and every row kept', () => {
    const { file, before } = copyOf('loomverse-38.db')
    expect(Object.values(before.rows).flat().length).toBeGreaterThan(10)

    const { db, migration } = openDatabase(file, { domains: appSchema, label: 'loomverse.db' })
    expect(migration.applied).toEqual(SINCE_RELEASE)
    expect(domainVersions(db)).toEqual(newestVersions())
    expect(schemaVersion(db)).toBe(totalSteps(appSchema))
    // What it had is untouched; the steps since only add.
    expect(schemaOf(db)).toEqual(expect.arrayContaining(before.schema))
    const { root_alternatives: added, ...kept } = rowsOf(db)
    expect(kept).toEqual(before.rows)
    expect(added).toEqual([])
    // A fresh database of this release has the very schema the previous one upgraded to.
    expect(schemaOf(db)).toEqual(freshSchema())
    // Its keyword index still finds the old turns.
    expect(db.prepare("SELECT count(*) FROM nodes_fts WHERE nodes_fts MATCH 'globes'").pluck().get()).toBe(1)
    db.close()

    // Opened again, nothing is pending.
    const again = openDatabase(file, { domains: appSchema, label: 'loomverse.db' })
    expect(again.migration).toEqual({ from: totalSteps(appSchema), to: totalSteps(appSchema), applied: [] })
    again.db.close()
  })

  it('is carried from step 30 to the newest schema by the steps it lacked only, in the domains’ order, keeping its rows', () => {
    const { file, before } = copyOf('loomverse-30.db')
    const { db, migration } = openDatabase(file, { domains: appSchema, label: 'loomverse.db' })
    expect(migration.applied).toEqual([
      'persona/0006-add-memory-private',
      'persona/0007-create-persona-avatars',
      'graph/0014-add-memory-private',
      'graph/0015-add-flow-cast',
      'graph/0016-add-place-index',
      ...SINCE_RELEASE, // the graph's; the domains go in their order
      'access/0002-add-api-token-mcp-writes',
      'mcp/0001-create-mcp-tables',
      'mcp/0002-create-mcp-commands',
      'lorebook/0001-create-lorebooks',
    ])
    expect(domainVersions(db)).toEqual(newestVersions())
    expect(schemaOf(db)).toEqual(freshSchema())
    const after = rowsOf(db)
    for (const [table, rows] of Object.entries(before.rows))
      expect(
        after[table]!.map((row) => pick(row, Object.keys(rows[0] ?? {}))),
        table,
      ).toEqual(rows)
    expect(db.prepare('SELECT name, memory_private, cast_json FROM flows').get()).toEqual({
      name: 'First talk',
      memory_private: 0,
      cast_json: '[]',
    })
    expect(db.prepare('SELECT AINAME, MEMORY_PRIVATE, CURRENT_BUILDING_ID FROM ai').get()).toEqual({
      AINAME: 'Aoi',
      MEMORY_PRIVATE: 0,
      CURRENT_BUILDING_ID: 'b1',
    })
    db.close()
  })
})

describe('loomverse.db of a newer release', () => {
  const home = useTempHome()

  function newerFile(change: (db: Db) => void): string {
    const file = join(home(), 'loomverse.db')
    const { db } = openDatabase(file, { domains: appSchema, label: 'loomverse.db' })
    db.prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('theme', '\"dark\"', 1)").run()
    change(db)
    db.close()
    return file
  }

  function refusal(file: string): AppError {
    const bytes = readFileSync(file)
    let error: unknown
    try {
      openDatabase(file, { domains: appSchema, label: 'loomverse.db' }).db.close()
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('db_too_new')
    expect(readFileSync(file).equals(bytes)).toBe(true)
    return error as AppError
  }

  it('is refused when a domain is at a version this one does not know, naming the domain, and left as it was', () => {
    const graphSteps = appSchema.find((s) => s.domain === 'graph')!.migrations.length
    const file = newerFile((db) => {
      db.exec('ALTER TABLE flows ADD COLUMN colour TEXT')
      db.prepare("UPDATE schema_versions SET version = version + 1 WHERE domain = 'graph'").run()
    })
    expect(refusal(file).message).toMatch(
      new RegExp(
        `loomverse\\.db has graph's schema at version ${graphSteps + 1}, but this Loomverse knows graph only up to ${graphSteps}\\. It was written by a newer Loomverse`,
      ),
    )
  })

  it('is refused when it holds a domain this one does not know, naming it', () => {
    const file = newerFile((db) =>
      db.prepare("INSERT INTO schema_versions (domain, version) VALUES ('garden', 2)").run(),
    )
    expect(refusal(file).message).toMatch(/a domain this Loomverse does not know, 'garden' \(schema version 2\)/)
  })
})

describe('the app schema’s order', () => {
  it('has each domain need every domain whose tables its migrations refer to (foreign keys, triggers)', () => {
    const owners = tables.owners as Record<string, string>
    const missing = appSchema.flatMap((schema) => {
      const folder = join(import.meta.dirname, schema.domain, 'migrations')
      const referred = readdirSync(folder).flatMap((name) =>
        [...readFileSync(join(folder, name), 'utf8').matchAll(/\b(?:REFERENCES|ON)\s+([a-z_][a-z0-9_]*)/g)].map(
          (m) => m[1]!,
        ),
      )
      const others = referred.flatMap((t) =>
        owners[t] === undefined || owners[t] === schema.domain ? [] : [owners[t]],
      )
      return [...new Set(others)]
        .filter((owner) => !schema.needs.includes(owner))
        .map((owner) => `${schema.domain} refers to ${owner}'s tables`)
    })
    expect(missing).toEqual([])
    expect(appSchema.find((s) => s.domain === 'world')!.needs).toEqual(['graph'])
  })

  it('lists every domain after those whose tables its own refer to, and a list that does not is refused', () => {
    const { db } = openDatabase(':memory:', { migrations: [], label: 'loomverse.db' })
    const world = appSchema.find((s) => s.domain === 'world')!
    expect(world.needs).toContain('graph')
    const worldFirst = [world, ...appSchema.filter((s) => s !== world)]
    expect(() => migrateDomains(db, worldFirst, 'loomverse.db')).toThrow(
      /domain world needs graph, which must be listed before it/,
    )
    expect(db.prepare('SELECT count(*) FROM sqlite_master').pluck().get()).toBe(0)
    db.close()
  })
})

function pick(row: unknown, keys: string[]): Record<string, unknown> {
  const all = row as Record<string, unknown>
  return Object.fromEntries(keys.map((k) => [k, all[k]]))
}

describe('a column added to one domain’s table (README: How to add a capability)', () => {
  const home = useTempHome()

  it('moves only that domain’s version, and the release before it refuses the file naming that domain', () => {
    const world = appSchema.find((s) => s.domain === 'world')!
    const addColour = {
      version: world.migrations.length + 1,
      name: 'add-building-colour',
      up: (db: Db) => db.exec('ALTER TABLE building ADD COLUMN COLOUR TEXT'),
    }
    const next = appSchema.map((s) => (s === world ? { ...world, migrations: [...world.migrations, addColour] } : s))
    const file = join(home(), 'loomverse.db')
    const first = openDatabase(file, { domains: appSchema, label: 'loomverse.db' }).db
    first
      .prepare("INSERT INTO building (BUILDINGID, NAME, CREATED_AT, UPDATED_AT) VALUES ('b1', 'Library', 't', 't')")
      .run()
    first.close()

    const { db, migration } = openDatabase(file, { domains: next, label: 'loomverse.db' })
    expect(migration.applied).toEqual([`world/000${addColour.version}-add-building-colour`])
    expect(domainVersions(db)).toEqual(new Map([...newestVersions(), ['world', addColour.version]]))
    expect(db.prepare('SELECT NAME, COLOUR FROM building').get()).toEqual({ NAME: 'Library', COLOUR: null })
    db.close()

    expect(() => openDatabase(file, { domains: appSchema, label: 'loomverse.db' })).toThrow(
      `loomverse.db has world's schema at version ${addColour.version}, but this Loomverse knows world only up to ${world.migrations.length}.`,
    )
  })
})
