import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import tables from '../main/tables.json'
import { productionFiles } from './support/productionFiles'

// Each domain owns its tables (DESIGN.md): production SQL names only its own folder's tables,
// as main/tables.json maps them. Like the import-graph test, it reads the source: every string
// literal of a production file of main/ (migrations aside), each table after FROM, JOIN, INTO,
// UPDATE or TABLE. SQL keywords are written in capitals here, so prose ("update the item") is
// not taken for SQL.

const mainDir = resolve(import.meta.dirname, '../main')

/** The tables each migration folder makes. */
function tablesMadeBy(folder: string): Set<string> {
  const made = new Set<string>()
  for (const { source } of migrationSources(folder))
    for (const m of source.matchAll(/CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)/gi))
      made.add(m[1]!)
  return made
}

/** Each `migrations` folder of the app database's owners: `graph/migrations`, `kernel/migrations`… (memory's makes a persona's own database). */
function appMigrationFolders(): string[] {
  return readdirSync(mainDir)
    .filter((unit) => unit !== 'memory' && existsSync(join(mainDir, unit, 'migrations')))
    .map((unit) => `${unit}/migrations`)
}

function migrationSources(folder: string): Array<{ path: string; source: string }> {
  return readdirSync(join(mainDir, folder)).map((name) => ({
    path: `${folder}/${name}`,
    source: readFileSync(join(mainDir, folder, name), 'utf8'),
  }))
}

/** Every table a source names in its SQL strings. */
function tablesNamed(source: string): string[] {
  const named = new Set<string>()
  for (const literal of source.matchAll(/`[^`]*`|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g))
    for (const m of literal[0].matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)/g)) named.add(m[1]!)
  return [...named]
}

type Owners = Record<string, string>

/**
 * Every `folder/file.ts → table` where a file names a table its folder does not own. The tables
 * of a persona's memory database (`memoryTables`) are memory's, its own `jobs` among them.
 */
function foreignTables(
  files: Array<{ path: string; source: string }>,
  owners: Owners,
  memoryTables: ReadonlySet<string>,
): string[] {
  const found: string[] = []
  for (const { path, source } of files) {
    const unit = path.split('/')[0]!
    for (const table of tablesNamed(source)) {
      if (unit === 'memory' && memoryTables.has(table)) continue
      const owner = owners[table] ?? (memoryTables.has(table) ? 'memory' : undefined)
      if (owner !== undefined && owner !== unit) found.push(`${path} → ${table} (${owner}'s)`)
    }
  }
  return found.sort()
}

/** The production files of main/ with their text; migrations make the tables, so they are left out. */
function mainSources(): Array<{ path: string; source: string }> {
  return productionFiles(mainDir, ['migrations']).map((file) => ({
    path: relative(mainDir, file).split(sep).join('/'),
    source: readFileSync(file, 'utf8'),
  }))
}

describe('the tables of main/ (main/tables.json)', () => {
  const memoryTables = tablesMadeBy('memory/migrations')

  it('gives every table of the app database an owner that is a folder of main/', () => {
    const folders = new Set(readdirSync(mainDir))
    const made = appMigrationFolders().flatMap((folder) => [...tablesMadeBy(folder)])
    expect(made.length).toBeGreaterThan(30) // the scan reads the real migration folders
    expect(made.filter((t) => !(t in tables.owners))).toEqual([])
    expect(Object.values(tables.owners).filter((owner) => !folders.has(owner))).toEqual([])
  })

  it('finds each domain’s migrations making and naming only the tables it owns', () => {
    // A migration that makes another domain's table belongs in that domain's folder.
    const misplaced = appMigrationFolders().flatMap((folder) => {
      const unit = folder.split('/')[0]!
      return [...tablesMadeBy(folder)]
        .filter((t) => (tables.owners as Owners)[t] !== unit)
        .map((t) => `${folder} makes ${t}`)
    })
    expect(misplaced).toEqual([])
    const sources = appMigrationFolders().flatMap(migrationSources)
    expect(foreignTables(sources, tables.owners, new Set())).toEqual([])
  })

  it('finds production SQL naming only its own folder’s tables', () => {
    const files = mainSources()
    // The scan reads real files: it sees the SQL of the graph's own store.
    expect(foreignTables(files, { ...tables.owners, nodes: 'world' }, memoryTables)).toContain(
      "graph/graphStore.ts → nodes (world's)",
    )
    // A domain reaching into another's table goes through the owner's service instead.
    expect(foreignTables(files, tables.owners, memoryTables)).toEqual([])
  })

  it('fails on SQL naming another domain’s table (the check can fail)', () => {
    const files = [
      { path: 'world/x.ts', source: "db.prepare('UPDATE ai SET current_building = ? WHERE id = ?')" },
      { path: 'story/x.ts', source: 'db.prepare(`SELECT s.id FROM stories s JOIN nodes n ON n.id = s.node_id`)' },
      { path: 'memory/x.ts', source: "db.prepare('SELECT id FROM jobs WHERE status = ?')" },
      { path: 'host/x.ts', source: "db.prepare('SELECT COUNT(*) FROM units')" },
      { path: 'graph/x.ts', source: "throw new Error('could not update item 3 from the list')" },
    ]
    expect(foreignTables(files, tables.owners, memoryTables)).toEqual([
      "host/x.ts → units (memory's)",
      "story/x.ts → nodes (graph's)",
      "world/x.ts → ai (persona's)",
    ])
  })
})
