import type { GraphStore } from './graphStore'

/**
 * The change logs triggers write (app migrations 24 to 26): a connection into a node added,
 * removed, moved or named (`connection_changes`, by its target), a node joining, leaving,
 * moving in or pinned in a flow (`member_changes`), a node's prompt, reply or summary written
 * (`node_changes`). Writes from any connection are logged — the CLI, the job worker — so what
 * the graph keeps (ancestry.ts, flowShapes.ts, ancestorLines.ts) can follow them.
 */
export type ChangeLogName = 'connection_changes' | 'member_changes' | 'node_changes'

/** One logged change: the flow (empty in `node_changes`: a node's text is the same in every flow), and the node it touched (a connection's target). */
export interface Change {
  seq: number
  flow_id: string
  node_id: string
}

/** Rows of a log kept behind its newest; a reader further behind starts afresh. */
const LOG_KEPT = 10_000

/** One reader of a change log, from where it last read; it trims the log behind itself. */
export class ChangeLogReader {
  private seen: number

  constructor(
    private readonly store: GraphStore,
    private readonly log: ChangeLogName,
  ) {
    this.seen = store.lastChange(log)
  }

  /**
   * What was logged since the last call, oldest first; null when the log was trimmed past what
   * this reader had seen (nothing kept from before can be trusted).
   */
  next(): Change[] | null {
    const changes = this.store.changesSince(this.log, this.seen)
    if (changes.length === 0) return changes
    const trimmed = changes[0]!.seq !== this.seen + 1
    const before = this.seen
    this.seen = changes.at(-1)!.seq
    if (Math.floor(before / LOG_KEPT) !== Math.floor(this.seen / LOG_KEPT))
      this.store.forgetChanges(this.log, this.seen - LOG_KEPT)
    return trimmed ? null : changes
  }
}
