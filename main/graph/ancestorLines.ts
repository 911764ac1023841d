import type { ContextPart } from '@shared/contract'
import { LRUCache } from 'lru-cache'
import { ChangeLogReader } from './changeLog'
import type { GraphStore } from './graphStore'

/** An ancestor's line in a prompt's history, counted: what `buildContext` lists for it. */
export type AncestorLine = Pick<ContextPart, 'text' | 'tokens'>

/** The lines kept as a context reads and writes them. */
export interface KeptLines {
  get(nodeId: string): AncestorLine | undefined
  set(nodeId: string, line: AncestorLine): void
}

/**
 * Lines kept: a few long conversations' worth of history (a line is ~250 characters). A prompt
 * reads the newest few hundred of its flow; at 20,000 a 10,000-turn conversation kept every line.
 */
const KEPT = 5_000

/**
 * Each ancestor's line of history (its summary, or the start of its turn), kept between
 * turns. Every prompt lists up to a few hundred ancestors, and reading them again each turn
 * (whole rows, replies and all) and flattening their text was about half of building a
 * context; the next turn's ancestors are the last one's and its parent.
 *
 * A line is forgotten when its node's prompt, reply or summary is written or the node is
 * deleted, as the `node_changes` log says (changeLog.ts: the job worker's summaries and the
 * CLI's edits are seen too).
 */
export class AncestorLines implements KeptLines {
  private readonly kept = new LRUCache<string, AncestorLine>({ max: KEPT })
  private readonly changes: ChangeLogReader

  constructor(private readonly store: GraphStore) {
    this.changes = new ChangeLogReader(store, 'node_changes')
  }

  /**
   * The lines, brought up to date with the log; null inside a transaction, whose logged rows
   * may still roll back (a context read there builds every line afresh).
   */
  current(): KeptLines | null {
    if (this.store.db.inTransaction) return null
    // Nothing kept, nothing to forget: 20,000 logged writes since the last prompt are not read.
    if (this.kept.size === 0) {
      this.changes.skip()
      return this
    }
    const changes = this.changes.next()
    if (changes === null) this.kept.clear()
    else for (const c of changes) this.kept.delete(c.node_id)
    return this
  }

  get(nodeId: string): AncestorLine | undefined {
    return this.kept.get(nodeId)
  }

  set(nodeId: string, line: AncestorLine): void {
    this.kept.set(nodeId, line)
  }
}
