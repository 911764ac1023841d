import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import Database from 'better-sqlite3'
import { runCli } from '../../main/cli'
import { startCore } from '../../main/core'
import { vecExtensionPath } from '../../main/db/open'
import type { HostileImport } from './corpora'
import { databasesOf } from './integrity'

export interface ImportResult {
  suite: 'hostile_imports'
  cases: number
  /** Imports that changed a database: something hostile got in. Must be 0. */
  accepted: number
  /** Refused without a word (exit 0 and no error line). Must be 0. */
  silent: number
  /** Refused, but the message names no file of the import. Must be 0. */
  unnamed: number
  details: string[]
}

/**
 * Runs each hostile import through the command line, as a user would, against a home that
 * already holds a persona, a flow and a memory: the import must be refused, with a message
 * naming the file, and every database must hold exactly what it held before.
 */
export async function runHostileImports(cases: HostileImport[]): Promise<ImportResult> {
  const result: ImportResult = { suite: 'hostile_imports', cases: 0, accepted: 0, silent: 0, unnamed: 0, details: [] }
  for (const c of cases) {
    const root = mkdtempSync(join(tmpdir(), 'loomverse-hostile-'))
    try {
      const home = join(root, 'home')
      const caseDir = join(root, 'case')
      mkdirSync(caseDir)
      const personaId = await seedHome(home)
      const before = fingerprint(home)
      const target = await c.write(caseDir)
      const err: string[] = []
      const argv =
        c.kind === 'vizprompt'
          ? ['import', '--format', 'vizprompt', target, '--home', home]
          : ['memory', 'import', '--persona', personaId, target, '--no-llm', '--home', home]
      const code = await runCli(argv, {
        out: () => {},
        err: (line) => err.push(line),
        env: {},
        untilStopped: () => Promise.resolve(),
        jobWorker: null,
      })
      result.cases++
      const message = err.join('\n')
      if (fingerprint(home) !== before) {
        result.accepted++
        result.details.push(`${c.name}: the import changed the database (exit ${code})`)
      } else if (code === 0 && message === '') {
        result.silent++
        result.details.push(`${c.name}: nothing imported, and nothing said why`)
      } else if (!namesAFile(message, target)) {
        result.unnamed++
        result.details.push(`${c.name}: the refusal names no file: ${message.slice(0, 200)}`)
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }
  return result
}

/** A home with something in every database, so "unchanged" means something. Returns the persona's id. */
async function seedHome(home: string): Promise<string> {
  const core = startCore({ home, mode: 'browser', jobWorker: null, log: () => {}, env: {} })
  try {
    const call = async <T>(method: string, input: unknown): Promise<T> => {
      const r = await core.router.call(method, input, { transport: 'internal' })
      if (!r.ok) throw new Error(`seeding: ${method}: ${r.error.code}: ${r.error.message}`)
      return r.value as T
    }
    const persona = await call<{ id: string }>('create_persona', { name: 'Before' })
    const flow = await call<{ id: string }>('create_flow', { name: 'before', persona_id: persona.id })
    await call('create_node', { flow_id: flow.id, prompt: 'already here', response: 'yes' })
    await call('memory_add_unit', { persona_id: persona.id, kind: 'fact', text: 'already remembered' })
    return persona.id
  } finally {
    await core.dispose()
  }
}

/** Every row of every table of every database in the home, hashed: equal before and after means unchanged. */
function fingerprint(home: string): string {
  const hash = createHash('sha256')
  for (const path of databasesOf(home)) {
    hash.update(`\n#${basename(path)}\n`)
    const db = new Database(path, { readonly: true })
    try {
      db.loadExtension(vecExtensionPath())
      const tables = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
        .all() as Array<{ name: string }>
      for (const { name } of tables) {
        hash.update(`\n@${name}\n`)
        // Table names come from the schema itself, quoted; never from the case.
        for (const row of db
          .prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`)
          .raw()
          .iterate())
          hash.update(JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)))
      }
    } finally {
      db.close()
    }
  }
  return hash.digest('hex')
}

/** The message names the imported path or some file inside it (by name), as "file and line" asks. */
function namesAFile(message: string, target: string): boolean {
  return message.includes(basename(target)) || /[\w.-]+\.(xml|ya?ml|tsv|jsonl|json)\b/.test(message)
}
