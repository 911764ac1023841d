import type { Database } from 'better-sqlite3'
import { AppError } from '@shared/errors'
import { checkOrder, schemaVersion, type Migration, type MigrationReport } from './migrate'

export interface DomainMigration extends Migration {
  /**
   * The step's number in the one list of the releases before each domain had its own
   * (0001…0038, `PRAGMA user_version`); absent for a step added since. It tells an old data
   * folder's version apart into the domains'. A step that once changed two domains' tables is
   * now one step in each, both with its old number.
   */
  legacy?: number
}

/** A domain's step as its file declares it (numbered by its place in the domain's list). */
export type DomainStep = Omit<DomainMigration, 'version'>

/** One domain's tables: their migrations, numbered 1, 2, 3… within the domain. */
export interface DomainSchema {
  domain: string
  /** Domains whose tables this one's refer to (foreign keys, triggers): listed, and migrated, before it. */
  needs: readonly string[]
  migrations: readonly DomainMigration[]
}

/**
 * The app database's schema: every domain's migrations in the order the composition root
 * lists them. `migration.from` and `to` count the steps applied over all domains (what
 * `PRAGMA user_version` holds, so a release from before per-domain versions refuses the file
 * once a step it does not know has run).
 */
export function migrateDomains(db: Database, domains: readonly DomainSchema[], label: string): MigrationReport {
  checkDomains(domains)
  const first = plan(db, domains, label)
  if (first.pending.length === 0 && first.recorded) return { from: first.from, to: first.from, applied: [] }
  let report: MigrationReport = { from: first.from, to: first.from, applied: [] }
  db.transaction(() => {
    // Again inside the write lock: another connection may have migrated the file meanwhile.
    const { from, pending } = plan(db, domains, label)
    db.exec(`CREATE TABLE IF NOT EXISTS schema_versions (
      domain  TEXT PRIMARY KEY,
      version INTEGER NOT NULL CHECK (version >= 0)
    ) STRICT`)
    for (const { step } of pending) step.up(db)
    const record = db.prepare(
      'INSERT INTO schema_versions (domain, version) VALUES (?, ?) ON CONFLICT (domain) DO UPDATE SET version = excluded.version',
    )
    for (const schema of domains) record.run(schema.domain, schema.migrations.length)
    const to = totalSteps(domains)
    // user_version cannot be bound as a parameter; `to` is an integer we computed.
    db.pragma(`user_version = ${to}`)
    report = { from, to, applied: pending.map(({ domain, step }) => `${domain}/${stepName(step)}`) }
  }).immediate()
  return report
}

/** How many steps the domains have in all: the app database's `PRAGMA user_version` once migrated. */
export function totalSteps(domains: readonly DomainSchema[]): number {
  return domains.reduce((sum, schema) => sum + schema.migrations.length, 0)
}

/** Each domain's schema version as the database records it. */
export function domainVersions(db: Database): Map<string, number> {
  if (!hasVersionTable(db)) return new Map()
  const rows = db.prepare('SELECT domain, version FROM schema_versions').all() as Array<{
    domain: string
    version: number
  }>
  return new Map(rows.map((r) => [r.domain, r.version]))
}

interface Plan {
  /** Steps applied before, over all domains. */
  from: number
  /** Whether the database already records per-domain versions (not a file from before them, not a new file). */
  recorded: boolean
  pending: Array<{ domain: string; step: DomainMigration }>
}

function plan(db: Database, domains: readonly DomainSchema[], label: string): Plan {
  const recorded = hasVersionTable(db)
  const versions = recorded ? domainVersions(db) : versionsBeforeDomains(db, domains, label)
  refuseNewer(versions, domains, label)
  const from = [...versions.values()].reduce((sum, v) => sum + v, 0)
  const known = totalSteps(domains)
  // Only a file someone edited gets here with every domain known: a newer release has more steps.
  if (schemaVersion(db) > known)
    throw tooNew(`${label} has schema version ${schemaVersion(db)}, but this Loomverse knows only up to ${known}.`)
  const pending = domains.flatMap((schema) =>
    schema.migrations
      .filter((m) => m.version > (versions.get(schema.domain) ?? 0))
      .map((step) => ({ domain: schema.domain, step })),
  )
  return { from, recorded, pending }
}

/**
 * A file from a release before per-domain versions: its `user_version` is how many steps of
 * the one old list ran, so each domain has run its steps numbered up to there. A new file
 * (version 0) has run none.
 */
function versionsBeforeDomains(db: Database, domains: readonly DomainSchema[], label: string): Map<string, number> {
  const old = schemaVersion(db)
  const lastOld = Math.max(0, ...domains.flatMap((s) => s.migrations.map((m) => m.legacy ?? 0)))
  if (old > lastOld)
    throw tooNew(`${label} has schema version ${old}, but this Loomverse knows only up to ${totalSteps(domains)}.`)
  return new Map(
    domains.map((s) => [s.domain, s.migrations.filter((m) => m.legacy !== undefined && m.legacy <= old).length]),
  )
}

function refuseNewer(versions: ReadonlyMap<string, number>, domains: readonly DomainSchema[], label: string): void {
  const known = new Map(domains.map((s) => [s.domain, s.migrations.length]))
  for (const [domain, version] of versions) {
    const latest = known.get(domain)
    if (latest === undefined)
      throw tooNew(
        `${label} has tables of a domain this Loomverse does not know, '${domain}' (schema version ${version}).`,
      )
    if (version > latest)
      throw tooNew(
        `${label} has ${domain}'s schema at version ${version}, but this Loomverse knows ${domain} only up to ${latest}.`,
      )
  }
}

function tooNew(what: string): AppError {
  return new AppError(
    'db_too_new',
    `${what} It was written by a newer Loomverse: update the app, or restore a backup made by this version.`,
  )
}

function hasVersionTable(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'").get() !== undefined
}

const stepName = (m: Migration) => `${String(m.version).padStart(4, '0')}-${m.name}`

/**
 * The list is the composition root's to get right, so a mistake in it is a programming error:
 * every domain once, after the domains it needs; steps numbered without gaps; the old numbers
 * first and in order within a domain, and together the old list 1…n with nothing missing.
 */
function checkDomains(domains: readonly DomainSchema[]): void {
  const seen = new Set<string>()
  for (const schema of domains) {
    if (seen.has(schema.domain)) throw new Error(`domain ${schema.domain} is listed twice`)
    for (const need of schema.needs)
      if (!seen.has(need)) throw new Error(`domain ${schema.domain} needs ${need}, which must be listed before it`)
    seen.add(schema.domain)
    checkOrder(schema.migrations)
    const firstNew = schema.migrations.findIndex((m) => m.legacy === undefined)
    if (firstNew >= 0 && schema.migrations.slice(firstNew).some((m) => m.legacy !== undefined))
      throw new Error(`domain ${schema.domain} has a step from the old list after a new one`)
    const old = schema.migrations.flatMap((m) => (m.legacy === undefined ? [] : [m.legacy]))
    if (old.some((n, i) => i > 0 && n <= old[i - 1]!))
      throw new Error(`domain ${schema.domain} lists its old step numbers out of order: ${old.join(', ')}`)
  }
  const old = new Set(domains.flatMap((s) => s.migrations.flatMap((m) => (m.legacy === undefined ? [] : [m.legacy]))))
  const missing = Array.from({ length: Math.max(0, ...old) }, (_, i) => i + 1).filter((n) => !old.has(n))
  if (missing.length > 0) throw new Error(`no domain has the old step(s) ${missing.join(', ')}`)
}
