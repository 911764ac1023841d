import type { Statement } from 'better-sqlite3'
import type { Db } from '../../db/open'
import { logHeadsOf } from '../store/logHeads'
import { runInSlices } from '../store/slices'

/**
 * What both in-memory vector indexes share (vectorIndex.ts: the local hashed n-gram vectors;
 * modelIndex.ts: the embedding model's and its sentences'): a copy of a sqlite-vec table kept
 * fresh from that table's change log, loaded at once or in slices, and built again when it is
 * far behind. A kind of index says only how its rows are read, kept and searched.
 *
 * Freshness: every write to the table appends the unit's id to its log (`vec_changes`,
 * `model_vector_changes`), from any connection; each sync applies the ids past the last seq
 * seen, in one read transaction, so the log and the vectors come from one snapshot.
 */
export abstract class LoggedVectorIndex {
  /** The last seq of the log applied; -1 until first built (and while a load is under way). */
  private seq = -1
  private readonly log: Record<'head' | 'changed', Statement<unknown[]>>
  private readonly logName: 'vec_changes' | 'model_vector_changes'
  /** A load under way in slices (loadInSlices); until it is done the index answers nothing. */
  private slices: Generator<void, void> | null = null
  /** Counters the tests and the profile read. */
  readonly stats = { searches: 0, rebuilds: 0, loadedFrom: null as 'chunks' | 'vec0' | null }

  /** `log`: the table's change log (one of ours, never input). */
  constructor(
    protected readonly db: Db,
    log: 'vec_changes' | 'model_vector_changes',
  ) {
    this.logName = log
    // Kept in fields, so not from the store's shared cache (db/statements.ts: a statement from it
    // is taken afresh for each use, as another caller may switch its mode).
    this.log = {
      // Two subqueries: SQLite answers a lone min() or max() from the key, both at once by a scan.
      head: db.prepare(`SELECT (SELECT min(seq) FROM ${log}) AS lo, (SELECT max(seq) FROM ${log}) AS hi`),
      changed: db.prepare(`SELECT DISTINCT unit_id AS id FROM ${log} WHERE seq > ?`),
    }
  }

  /** Whether the index was built (by a sync or a load in slices). */
  get built(): boolean {
    return this.seq >= 0
  }

  /** Whether the index answers: false while a load in slices is under way (ask sqlite-vec). */
  get ready(): boolean {
    return this.slices === null
  }

  /**
   * Applies what changed since the last call (or loads everything when it must). While a load in
   * slices is under way it does nothing: that load catches up when it is done.
   */
  sync(): void {
    if (this.slices) return
    // Nothing logged since the last seq applied: nothing to read, no read transaction. (A new
    // model, which outdated() sees, logs unit 0: modelVectors.ts.)
    if (this.seq >= 0 && logHeadsOf(this.db).head(this.logName) === this.seq) return
    this.inReadTransaction(() => {
      const { head, reload } = this.plan()
      if (reload) return this.load(head)
      if (head === this.seq) return
      const ids = (this.log.changed.all(this.seq) as Array<{ id: number }>).map((r) => r.id)
      if (!this.apply(ids)) return this.load(head)
      this.seq = head
    })
  }

  /**
   * Loads everything, if a load is due, in slices of about `sliceMs` with the event loop running
   * between them, then catches up with what was written meanwhile. At once, a load held the main
   * thread ~1.6 s at 100k units for the local vectors and ~5 s for the model's (sentences
   * included), in the first pack after start; the memory starts this when it opens a persona's
   * store, and until it is done a pack asks sqlite-vec instead (retrieval.ts).
   */
  async loadInSlices(sliceMs = 8): Promise<void> {
    if (this.slices || this.db.inTransaction) return
    const { head, reload } = this.db.transaction(() => this.plan()).deferred()
    if (!reload) return this.sync()
    this.slices = this.loadSteps(head, true)
    try {
      // What is written between slices is in the change log past `head`: the sync below applies it.
      await runInSlices(this.db, this.slices, sliceMs)
    } finally {
      this.slices = null
    }
    this.sync()
  }

  /** Reloads every vector (the bench times it). */
  rebuild(): void {
    this.inReadTransaction(() => this.load(this.head().hi ?? 0))
  }

  /** The log's newest seq, and whether the index must load everything again rather than apply the log. */
  private plan(): { head: number; reload: boolean } {
    const { lo, hi } = this.head()
    const head = hi ?? 0
    const pruned = lo !== null && this.seq < lo - 1
    const behind = this.seq < 0 || pruned || head < this.seq || head - this.seq > REBUILD_AFTER
    // Both asked: the kind reads what its load will need (the model's meta) on each plan.
    const outdated = this.outdated()
    return { head, reload: behind || outdated }
  }

  private head(): { lo: number | null; hi: number | null } {
    return this.log.head.get() as { lo: number | null; hi: number | null }
  }

  private inReadTransaction(run: () => void): void {
    if (this.db.inTransaction) run()
    else this.db.transaction(run).deferred()
  }

  private load(head: number): void {
    for (const _ of this.loadSteps(head, false));
  }

  /**
   * Loads everything: at once inside one read transaction (`load`), or in slices
   * (`loadInSlices`), where a page may see rows written after `head`, which the change log
   * brings again, so counts that disagree are no sign of damage.
   */
  private *loadSteps(head: number, sliced: boolean): Generator<void, void> {
    // Until the load completes, a failure leaves the index marked unbuilt.
    this.seq = -1
    const from = yield* this.loadRows(sliced)
    if (from) {
      this.stats.loadedFrom = from
      this.stats.rebuilds++
    }
    this.seq = head
  }

  /** Whether what is kept no longer matches the table whatever the log says (another model). */
  protected abstract outdated(): boolean

  /** Empties the index and loads every row, yielding every few hundred; null when there was nothing to load. */
  protected abstract loadRows(sliced: boolean): Generator<void, 'chunks' | 'vec0' | null>

  /** Puts in (or takes out) the units the log names; false when the log asks for a full load instead. */
  protected abstract apply(ids: readonly number[]): boolean
}

/** Past this many logged changes a full reload is cheaper than applying them one by one. */
const REBUILD_AFTER = 5_000
