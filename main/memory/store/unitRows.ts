import { LRUCache } from 'lru-cache'
import { approxBytes } from '../../kernel/approxBytes'
import { LogReader, tableLog } from '../../kernel/changeLogReader'
import { UnitKind } from './enums'
import { itemLine, type ItemLine } from './itemText'
import { logHeadsOf } from './logHeads'
import { anchorTold } from './toldTime'
import type { MemoryStore, UnitRow } from './store'

/**
 * What one memory keeps between packs, in bytes of heap (approxBytes): rows, texts, and each
 * kind of thing made from texts, each within its share. A pack reads a few hundred rows and the
 * texts of the best hundred, and consecutive packs share most of them: a share holds those of
 * ten packs or more (~4,500 rows, ~1,300 lines of 500 characters). Bounded by count (50,000 rows) and by characters of text (16M, with pack
 * lines holding each text three times over), the caches grew with the memory itself, ~2 KB a
 * turn for as long as a companion talked (bench/graph/hostMemory: most of the host's growth).
 * Kept by count (5,000) instead, pack lines turned over every pack of a 10k-unit memory, and
 * each young-generation GC copied the ones still kept (a pack's p95 10 ms): a byte share lets
 * short lines stay many.
 */
export const KEPT_SHARE_BYTES = 2 * 1024 * 1024

/**
 * What an entry costs beside its value: lru-cache's Map slot for the key and its list slots,
 * and a derived value's { value, size }. Left out, a share of small values (a unit's feedback
 * words) held ~35% more than its bound (heap snapshots at 6,000 turns).
 */
const ENTRY_BYTES = 100
/** Absent ids kept at most (a pack asks for one or two): past it, they are forgotten and asked again. */
const ABSENT_MOST = 1000
const keptSize = (value: unknown) => ENTRY_BYTES + approxBytes(value)

/**
 * The unit rows and texts MemoryPacks have read, kept between packs. A pack weighs a few
 * hundred units found by its searches and reads the texts of the best hundred, and reading them
 * again each time was ~1.5 ms of a 7 ms pack at 10k units; consecutive packs find many of the
 * same units. A unit's row and text are forgotten when the `unit_changes` log (memory migration
 * 9, written by triggers, so the memory worker's writes count) says the unit was written — a
 * text is never rewritten without its row (store.reindex sets the token count). Kept rows are
 * frozen: every pack shares them.
 */
export class UnitRows {
  private readonly kept = new LRUCache<number, UnitRow>({
    maxSize: KEPT_SHARE_BYTES,
    sizeCalculation: keptSize,
  })
  /** Texts kept (an episode's is a few hundred to a few thousand characters). */
  private readonly texts = new LRUCache<number, string>({
    maxSize: KEPT_SHARE_BYTES,
    sizeCalculation: keptSize,
  })
  /**
   * What packs make from the kept texts, by what it is (`derivedOf`): pack lines (itemText.ts;
   * flattening and keying ~130 a pack was a third of it) and feedback words (wordRanking.ts).
   */
  private readonly derived = new Map<string, LRUCache<number, { value: unknown; size: number }>>()
  private readonly changes: LogReader<{ seq: number; unit_id: number }>
  /**
   * Ids read and not found (the turn after the newest, which word search lends to), so they are
   * not asked again in every pack; forgotten when the log says a unit of that id was written.
   */
  private readonly absent = new Set<number>()
  /** Rows and texts read from the database, and values made from texts, while keeping them (for tests). */
  readonly stats = { rowsRead: 0, textsRead: 0, made: 0 }

  constructor(private readonly store: MemoryStore) {
    const heads = logHeadsOf(store.db)
    this.changes = new LogReader(tableLog(store.prepare, 'unit_changes', 'unit_id'), () => heads.head('unit_changes'))
  }

  /** The rows of these units that exist, in no particular order. */
  of(ids: readonly number[]): UnitRow[] {
    if (!this.catchUp()) return read(this.store, ids)
    const out: UnitRow[] = []
    const missing: number[] = []
    for (const id of ids) {
      const row = this.kept.get(id)
      if (row) out.push(row)
      else if (!this.absent.has(id)) missing.push(id)
    }
    if (missing.length === 0) return out
    this.stats.rowsRead += missing.length
    const found = new Set<number>()
    for (const fresh of read(this.store, missing)) {
      const row = Object.freeze(shaped(fresh))
      this.kept.set(row.id, row)
      found.add(row.id)
      out.push(row)
    }
    if (this.absent.size > ABSENT_MOST) this.absent.clear()
    for (const id of missing) if (!found.has(id)) this.absent.add(id)
    return out
  }

  /** The searchable texts of these units (as the indexes hold them), by id. */
  textsOf(ids: readonly number[]): Map<number, string> {
    return this.catchUp() ? this.keptTexts(ids) : readTexts(this.store, ids)
  }

  /**
   * The pack lines of these units' texts (null for an empty text), by id; units without a text
   * are left out. An episode's days told relatively get their date (toldTime.ts).
   */
  linesOf(units: readonly UnitRow[]): Map<number, ItemLine | null> {
    const said = new Map(units.map((u) => [u.id, u.kind === UnitKind.EPISODE ? u.occurred_at : null]))
    return this.derivedOf('line', [...said.keys()], (text, id) => itemLine(anchorTold(text, said.get(id) ?? null)))
  }

  /**
   * `make(text, id)` of each of these units' texts, by id, kept under `kind` with the text and
   * forgotten with it; units without a text are left out. `make` may depend on the text and the
   * unit's row (its time): neither is written without the change log saying so.
   */
  derivedOf<T>(kind: string, ids: readonly number[], make: (text: string, id: number) => T): Map<number, T> {
    const out = new Map<number, T>()
    if (!this.catchUp()) {
      for (const [id, text] of readTexts(this.store, ids)) out.set(id, make(text, id))
      return out
    }
    let kept = this.derived.get(kind)
    if (!kept)
      this.derived.set(
        kind,
        (kept = new LRUCache<number, { value: unknown; size: number }>({
          maxSize: KEPT_SHARE_BYTES,
          sizeCalculation: (entry) => entry.size,
        })),
      )
    const missing: number[] = []
    for (const id of ids) {
      const hit = kept.get(id)
      if (hit) out.set(id, hit.value as T)
      else missing.push(id)
    }
    for (const [id, text] of this.keptTexts(missing)) {
      this.stats.made++
      const value = make(text, id)
      kept.set(id, { value, size: keptSize(value) })
      out.set(id, value)
    }
    return out
  }

  private keptTexts(ids: readonly number[]): Map<number, string> {
    const out = new Map<number, string>()
    const missing: number[] = []
    for (const id of ids) {
      const text = this.texts.get(id)
      if (text === undefined) missing.push(id)
      else out.set(id, text)
    }
    this.stats.textsRead += missing.length
    for (const [id, text] of readTexts(this.store, missing)) {
      this.texts.set(id, text)
      out.set(id, text)
    }
    return out
  }

  /** The heap the kept rows, texts and derived values take, as keptSize counts it (for tests). */
  get keptBytes(): number {
    let bytes = 0
    for (const row of this.kept.values()) bytes += keptSize(row)
    for (const text of this.texts.values()) bytes += keptSize(text)
    for (const kept of this.derived.values()) for (const { value } of kept.values()) bytes += keptSize(value)
    return bytes
  }

  /**
   * Forgets what the log says was written since the last call; false inside a transaction,
   * whose logged rows may still roll back (the caller reads without keeping).
   */
  catchUp(): boolean {
    if (this.store.db.inTransaction) return false
    this.forgetWritten()
    return true
  }

  /**
   * Catches up as `catchUp` does, then reads in what the next pack asks of the units written
   * since, when they are few (an exchange, a job's facts): their rows, texts and pack lines.
   * Answers their ids, for other things made from their texts to be made now too. A turn's own
   * episode is among the next pack's finds more often than not, and reading it there was
   * ~0.4 ms on the way to the reply's first token.
   */
  catchUpAhead(most: number): number[] {
    if (this.store.db.inTransaction) return []
    const written = this.forgetWritten()
    if (written === null || written.size === 0 || written.size > most) return []
    // With the id after the newest, which word search lends to when the newest turn asked
    // something (wordRanking.ts replies): read once here, and known absent until it is written.
    const ids = [...written]
    const rows = this.of([...ids, Math.max(...ids) + 1]).filter((r) => written.has(r.id))
    this.linesOf(rows)
    return rows.map((r) => r.id)
  }

  /** Forgets what the log says was written since the last look; its unit ids, or null when the log was cut (all forgotten). */
  private forgetWritten(): Set<number> | null {
    const changes = this.changes.next()
    if (changes === null) {
      this.kept.clear()
      this.absent.clear()
      this.texts.clear()
      for (const kept of this.derived.values()) kept.clear()
      return null
    }
    const written = new Set<number>()
    for (const c of changes) {
      written.add(c.unit_id)
      this.kept.delete(c.unit_id)
      this.absent.delete(c.unit_id)
      this.texts.delete(c.unit_id)
      for (const kept of this.derived.values()) kept.delete(c.unit_id)
    }
    return written
  }
}

function readTexts(store: MemoryStore, ids: readonly number[]): Map<number, string> {
  if (ids.length === 0) return new Map()
  const rows = store
    .prepare('SELECT f.rowid AS id, f.text FROM json_each(?) j JOIN units_fts f ON f.rowid = j.value')
    .all(JSON.stringify(ids)) as Array<{ id: number; text: string }>
  return new Map(rows.map((r) => [r.id, r.text]))
}

function read(store: MemoryStore, ids: readonly number[]): UnitRow[] {
  if (ids.length === 0) return []
  return store
    .prepare('SELECT u.* FROM json_each(?) j JOIN units u ON u.id = j.value')
    .all(JSON.stringify(ids)) as UnitRow[]
}

/**
 * A row as a literal of its 20 columns. better-sqlite3 hands rows over as dictionary-mode
 * objects, and freezing one gave it a hidden class of its own: a kept row with its strings was
 * ~1.1 KB of heap (a companion makes a unit a turn: ~11 MB at 10,000 turns, ~55 MB for the
 * 50,000 kept). Built alike, the rows share one hidden class, frozen too: ~380 bytes.
 */
function shaped(r: UnitRow): UnitRow {
  return {
    id: r.id,
    kind: r.kind,
    occurred_at: r.occurred_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    source: r.source,
    state: r.state,
    confidence: r.confidence,
    salience: r.salience,
    sensitivity: r.sensitivity,
    pin: r.pin,
    topic_tags: r.topic_tags,
    emotion_label: r.emotion_label,
    emotion_intensity: r.emotion_intensity,
    origin_node_id: r.origin_node_id,
    origin_flow_id: r.origin_flow_id,
    external_ref: r.external_ref,
    is_global: r.is_global,
    version: r.version,
    tokens: r.tokens,
  }
}

const rows = new WeakMap<MemoryStore, UnitRows>()

/** The kept rows of one memory store. */
export function unitRowsOf(store: MemoryStore): UnitRows {
  let r = rows.get(store)
  if (!r) rows.set(store, (r = new UnitRows(store)))
  return r
}
