import type { Db } from '../db/open'

/**
 * Replies a crash cut off mid-stream: no process is streaming them any more, so they become
 * `incomplete` with the text that arrived (the card then offers Continue, or Try again when
 * nothing arrived) and stale, so "Build summaries" takes them. Returns how many there were.
 */
export function finishInterruptedReplies(db: Db): number {
  return db
    .prepare("UPDATE nodes SET status = 'incomplete', error = NULL, summary_updated = 1 WHERE status = 'streaming'")
    .run().changes
}
