import { modelIndexOf } from './modelIndex'
import type { MemoryStore } from './store'
import { unitRowsOf } from './unitRows'
import { vectorIndexOf } from './vectorIndex'
import { wordIndexOf } from './wordIndex'

/**
 * Takes what was written to a memory — an exchange, a job's facts and summaries, an edit — into
 * the indexes its MemoryPacks keep (word postings, unit rows and their texts, vectors) as soon
 * as the main thread is free, rather than in the next pack. Every exchange writes, so every
 * next pack caught up first: about a third of a pack at a few hundred units, on the way to the
 * reply's first token. Only indexes a pack has built are brought up to date; building one is
 * the pack's to do (or a load in slices: modelIndex.ts).
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
    for (const store of stores) catchUpIndexes(store)
  }
}

/** Brings the built indexes of `store` up to date with its change logs (nothing inside a transaction). */
export function catchUpIndexes(store: MemoryStore): void {
  const { db } = store
  if (!db.open || db.inTransaction) return
  unitRowsOf(store).catchUp()
  wordIndexOf(store).catchUp()
  const vectors = vectorIndexOf(store)
  if (vectors.built) vectors.sync()
  const model = modelIndexOf(db)
  if (model.built) model.sync()
}
