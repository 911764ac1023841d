import { hash, randomBytes, randomUUID } from 'node:crypto'
import type { ApiToken } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Db } from '../db/open'
import { statements } from '../db/statements'
import { whenFree } from '../kernel/afterFirstText'
import type { Statement } from 'better-sqlite3'
import { isoNow } from '../kernel/time'

/** Marks an API token, so one pasted where the UI's launch token belongs (or the reverse) is told apart. */
export const API_TOKEN_PREFIX = 'lvk_'

/**
 * How long calls are counted in memory before they are written: one write for every call made
 * meanwhile. A write per call (~0.4 ms, and the database's write lock) landed in some /api/chat
 * turn whenever its model was slow to start, and a program calling back to back paid it on
 * every call. A listing writes them first, and closing the app does too (flush).
 */
export const COUNT_EVERY_MS = 1000

interface Row {
  id: string
  name: string
  created_at: string
  last_used_at: string | null
  calls: number
  revoked_at: string | null
  mcp_writes: number
}

/** Tokens of the programs connected to the HTTP API: made, listed, revoked, and checked per request. */
export class ApiTokens {
  /** Compiled statements, reused (db/statements.ts). */
  private readonly sql: (sql: string) => Statement

  /** Calls counted since the last write, per token id: written after the request, not in its way. */
  private readonly uncounted = new Map<string, { calls: number; at: string }>()
  /** The write of `uncounted` that is due (COUNT_EVERY_MS after the first call it holds). */
  private due: ReturnType<typeof setTimeout> | null = null

  constructor(private readonly db: Db) {
    this.sql = statements(db)
  }

  create(name: string, mcpWrites = false): ApiToken & { token: string } {
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url')
    const id = randomUUID()
    this.sql('INSERT INTO api_tokens (id, name, hash, created_at, mcp_writes) VALUES (?, ?, ?, ?, ?)').run(
      id,
      name,
      hashOf(token),
      isoNow(),
      mcpWrites ? 1 : 0,
    )
    return { ...this.get(id), token }
  }

  list(): ApiToken[] {
    this.writeCounts()
    const rows = this.sql('SELECT * FROM api_tokens ORDER BY created_at, id').all() as Row[]
    return rows.map(toToken)
  }

  revoke(id: string): ApiToken {
    this.get(id)
    this.sql('UPDATE api_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(isoNow(), id)
    return this.get(id)
  }

  /**
   * The live token a request presents, counted as one call; null when unknown or revoked. The
   * lookup is by the hash of a 256-bit secret, so how long it takes tells a caller nothing.
   */
  use(presented: string): ApiToken | null {
    const row = this.sql('SELECT * FROM api_tokens WHERE hash = ?').get(hashOf(presented)) as Row | undefined
    if (!row || row.revoked_at) return null
    // The count is written a while later, with the calls made meanwhile, once a reply waiting
    // for its first text has it (whenFree): never in the way of a request (COUNT_EVERY_MS).
    if (!this.due) {
      this.due = setTimeout(() => whenFree(() => this.writeCounts()), COUNT_EVERY_MS)
      this.due.unref()
    }
    const count = this.uncounted.get(row.id) ?? { calls: 0, at: '' }
    count.calls++
    count.at = isoNow()
    this.uncounted.set(row.id, count)
    return toToken({ ...row, calls: row.calls + count.calls, last_used_at: count.at })
  }

  /** Writes the calls counted and not written yet: before the database closes. */
  flush(): void {
    this.writeCounts()
  }

  /** Writes the calls counted since the last write (a listing reads them written). */
  private writeCounts(): void {
    if (this.due) clearTimeout(this.due)
    this.due = null
    if (this.uncounted.size === 0 || !this.db.open) return
    const counts = [...this.uncounted]
    this.uncounted.clear()
    const update = this.sql('UPDATE api_tokens SET calls = calls + ?, last_used_at = ? WHERE id = ?')
    this.db
      .transaction(() => {
        for (const [id, { calls, at }] of counts) update.run(calls, at, id)
      })
      .immediate()
  }

  private get(id: string): ApiToken {
    const row = this.sql('SELECT * FROM api_tokens WHERE id = ?').get(id) as Row | undefined
    if (!row) throw new AppError('not_found', `no API token ${id}`)
    return toToken(row)
  }
}

/** Asked at every API call: a one-shot hash, not a createHash() object to finalize. */
function hashOf(token: string): string {
  return hash('sha256', token, 'hex')
}

function toToken(row: Row): ApiToken {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    calls: row.calls,
    revoked: row.revoked_at !== null,
    mcp_writes: row.mcp_writes === 1,
  }
}
