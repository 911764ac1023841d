import { modelIndexOf } from './modelIndex'
import type { MemoryStore } from '../store/store'
import { unitRowsOf } from '../store/unitRows'
import { vectorIndexOf } from './vectorIndex'
import { wordIndexOf } from './wordIndex'
import { warmFeedbackWords } from './wordRanking'

/**
 * The most units written since the last catch-up whose rows and texts are read ahead: an
 * exchange writes one or two, a job's facts a few dozen; an import's load when packs ask.
 */
const READ_AHEAD_MOST = 64

/**
 * Takes what was written to a memory — an exchange, a job's facts and summaries, an edit — into
 * the indexes its MemoryPacks keep (word postings, unit rows and their texts, vectors) as soon
 * as the main thread is free, rather than in the next pack. Every exchange writes, so every
 * next pack caught up first: about a third of a pack at a few hundred units, on the way to the
 * reply's first token. Only indexes already built (by a pack, or loading in slices when the
 * memory was opened) are brought up to date.
 */
export class IndexCatchUp {
  private readonly due = new Set<MemoryStore>()
  private scheduled = false

  /** Catches `store` up once the current work is done (several writes, one catch-up). */
  soon(store: MemoryStore): void {
    this.due.add(store)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.run())
  }

  private run(): void {
    this.scheduled = false
    const stores = [...this.due]
    this.due.clear()
    for (const store of stores)
      catchUpIndexes(store).catch(() => {
        // The memory was closed meanwhile (its persona deleted, the app quitting): nothing to catch
        // up. Any other failure comes back in the next pack, which catches up itself.
      })
  }
}

/**
 * Brings the built indexes of `store` up to date with its change logs (nothing inside a
 * transaction). An index far behind (an import) loads again in slices instead, and packs ask
 * SQLite meanwhile; the returned promise is done when they are.
 */
export async function catchUpIndexes(store: MemoryStore): Promise<void> {
  const { db } = store
  if (!db.open || db.inTransaction) return
  warmFeedbackWords(store, unitRowsOf(store).catchUpAhead(READ_AHEAD_MOST))
  const vectors = vectorIndexOf(store)
  const model = modelIndexOf(db)
  await Promise.all([
    wordIndexOf(store).catchUp(),
    vectors.built ? vectors.loadInSlices() : null,
    model.built ? model.loadInSlices() : null,
  ])
}
