import { LRUCache } from 'lru-cache'
import { LogReader } from '../kernel/changeLogReader'
import type { MemoryStore, UnitRow } from './store'

/** Rows kept per memory: what a few hundred packs read (a row is ~300 bytes). */
const KEPT = 50_000

/**
 * The unit rows MemoryPacks have read, kept between packs. A pack weighs a few hundred units
 * found by its searches, and reading their rows again each time was ~1 ms of a 7 ms pack at
 * 10k units; consecutive packs find many of the same units. A row is forgotten when the
 * `unit_changes` log (memory migration 9, written by triggers, so the memory worker's writes
 * count) says its unit was written. Kept rows are frozen: every pack shares them.
 */
export class UnitRows {
  private readonly kept = new LRUCache<number, UnitRow>({ max: KEPT })
  private readonly changes: LogReader<{ seq: number; unit_id: number }>

  constructor(private readonly store: MemoryStore) {
    this.changes = new LogReader({
      since: (seq) =>
        store.prepare('SELECT seq, unit_id FROM unit_changes WHERE seq > ? ORDER BY seq').all(seq) as Array<{
          seq: number
          unit_id: number
        }>,
      last: () => (store.prepare('SELECT max(seq) FROM unit_changes').pluck().get() as number | null) ?? 0,
      forget: (seq) => store.prepare('DELETE FROM unit_changes WHERE seq <= ?').run(seq),
    })
  }

  /** The rows of these units that exist, in no particular order. */
  of(ids: readonly number[]): UnitRow[] {
    // Inside a transaction the log may hold rows that roll back: read without keeping.
    if (this.store.db.inTransaction) return read(this.store, ids)
    const changes = this.changes.next()
    if (changes === null) this.kept.clear()
    else for (const c of changes) this.kept.delete(c.unit_id)
    const out: UnitRow[] = []
    const missing: number[] = []
    for (const id of ids) {
      const row = this.kept.get(id)
      if (row) out.push(row)
      else missing.push(id)
    }
    for (const row of read(this.store, missing)) {
      Object.freeze(row)
      this.kept.set(row.id, row)
      out.push(row)
    }
    return out
  }
}

function read(store: MemoryStore, ids: readonly number[]): UnitRow[] {
  if (ids.length === 0) return []
  return store
    .prepare('SELECT u.* FROM json_each(?) j JOIN units u ON u.id = j.value')
    .all(JSON.stringify(ids)) as UnitRow[]
}

const rows = new WeakMap<MemoryStore, UnitRows>()

/** The kept rows of one memory store. */
export function unitRowsOf(store: MemoryStore): UnitRows {
  let r = rows.get(store)
  if (!r) rows.set(store, (r = new UnitRows(store)))
  return r
}
