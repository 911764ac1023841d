import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import Database from 'better-sqlite3'
import type { Result } from '@shared/errors'
import { startCore, type Core } from '../../main/core'
import { vecExtensionPath } from '../../main/db/open'
import { importVizprompt } from '../../main/interop/vizprompt'
import type { HostileCase, HostileCorpus } from './corpora'
import { namedInImports, type HostileInput } from './hostileImports'
import { databasesOf } from './integrity'

export interface ImportResult {
  suite: 'hostile_imports'
  cases: number
  /** Cases the platform cannot make (links and FIFOs on Windows). */
  unavailable: number
  /** Imports that were not refused, or changed a database: something hostile got in. Must be 0. */
  accepted: number
  /** Refused, but the message does not start with the file (and line) the case names. Must be 0. */
  unnamed: number
  /** Refusals that echo the secret file's text. Must be 0. */
  leaked: number
  details: string[]
}

/**
 * Runs each hostile import against a home that already holds a flow, a persona and a memory:
 * VizPrompt folders through the import the command line runs, the other files through the
 * router as a window (`ws`) or the command line (`internal`) calls their method. Each must be
 * refused with a message starting `file:line: ` (or `file: `) — or, where the case says so,
 * answered with its damaged conversation skipped — echo nothing of the secret file, and leave
 * every row of every database as it was.
 */
export async function runHostileImports(corpus: HostileCorpus): Promise<ImportResult> {
  const result: ImportResult = {
    suite: 'hostile_imports',
    cases: 0,
    unavailable: 0,
    accepted: 0,
    unnamed: 0,
    leaked: 0,
    details: [],
  }
  const root = mkdtempSync(join(tmpdir(), 'loomverse-hostile-'))
  const home = join(root, 'home')
  const core = startCore({ home, mode: 'browser', jobWorker: null, log: () => {}, env: {} })
  try {
    const personaId = await seed(core)
    const imports = join(home, 'imports')
    for (const [i, c] of corpus.cases.entries()) {
      if (!c.available) {
        result.unavailable++
        continue
      }
      const place = corpus.place(join(root, `case-${i}`), join(imports, `case-${i}`))
      const input = c.build(place)
      const before = fingerprint(home)
      const outcome = await attemptHostile(core, personaId, c, casePath(c, i, input.path))
      result.cases++
      const wrong = misjudged(input, casePath(c, i, input.file), outcome)
      if (fingerprint(home) !== before) {
        result.accepted++
        result.details.push(`${c.name}: ${outcome.refusal === null ? 'answered' : 'refused'}, but a database changed`)
      } else if (wrong !== null) {
        if (outcome.refusal === null) result.accepted++
        else result.unnamed++
        result.details.push(`${c.name}: ${wrong}`)
      }
      if (outcome.refusal?.includes(corpus.canary)) {
        result.leaked++
        result.details.push(`${c.name}: the refusal echoes the secret file`)
      }
    }
  } finally {
    await core.dispose()
    rmSync(root, { recursive: true, force: true })
  }
  return result
}

/** What an import answered: its refusal's message (null if it went through), and the reasons it gave for what it skipped. */
export interface HostileOutcome {
  refusal: string | null
  skipped: string[]
}

/** The path (or file) of case `i` as its import names it: a window's relative to imports/, where each case has a folder. */
export function casePath(c: HostileCase, i: number, path: string): string {
  return namedInImports(c.target) && !path.startsWith('/') ? `case-${i}/${path}` : path
}

/** Imports case `c` the way its target does. */
export async function attemptHostile(
  core: Core,
  personaId: string,
  c: HostileCase,
  path: string,
): Promise<HostileOutcome> {
  switch (c.target) {
    case 'vizprompt':
      return importVizprompt(core, path).then(
        () => ({ refusal: null, skipped: [] }),
        (e: unknown) => ({ refusal: e instanceof Error ? e.message : String(e), skipped: [] }),
      )
    case 'chatgpt':
      return answered(await core.router.call('chatgpt_import', { path }, { transport: 'ws' }))
    case 'card':
      return answered(await core.router.call('character_card_import', { path }, { transport: 'ws' }))
    case 'lorebook': {
      // The window reads the file and sends its text, named by the file's name.
      const input = { name: basename(path), text: readFileSync(path, 'utf8') }
      return answered(await core.router.call('import_lorebook', input, { transport: 'ws' }))
    }
    case 'memory-window':
    case 'memory-cli': {
      const transport = c.target === 'memory-window' ? 'ws' : 'internal'
      const input = { persona_id: personaId, path, no_llm: true }
      return answered(await core.router.call('memory_import', input, { transport }))
    }
  }
}

function answered(r: Result<unknown>): HostileOutcome {
  if (!r.ok) return { refusal: r.error.message, skipped: [] }
  const skipped = (r.value as { skipped?: unknown }).skipped
  const reasons = Array.isArray(skipped)
    ? skipped.map((s: unknown) => (typeof s === 'string' ? s : String((s as { reason?: unknown }).reason)))
    : []
  return { refusal: null, skipped: reasons }
}

/** How the outcome differs from what the case asks for, in words; null when it does not. */
export function misjudged(input: HostileInput, file: string, outcome: HostileOutcome): string | null {
  const { refusal, skipped } = outcome
  if (input.skipped !== undefined) {
    if (refusal !== null) return `refused ("${refusal.slice(0, 200)}") where it should skip "${input.skipped}"`
    return skipped.some((r) => r.includes(input.skipped!)) ? null : `answered without skipping "${input.skipped}"`
  }
  if (refusal === null) return 'imported'
  const where = input.line === null ? `${file}: ` : `${file}:${input.line}: `
  if (!refusal.startsWith(where)) return `"${refusal.slice(0, 200)}" does not start with "${where}"`
  if (input.reason !== undefined && !refusal.includes(input.reason))
    return `"${refusal.slice(0, 200)}" does not say "${input.reason}"`
  return null
}

/** Something in every database, so "unchanged" means something. Returns the persona's id. */
async function seed(core: Core): Promise<string> {
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
