import type { MemoryStore } from './store'

/** Packs kept per node: a node answered again (continue, edits) keeps its latest few. */
export const PACKS_PER_NODE = 3
/** Packs kept in all: each is a few KB, and a months-long companion sends tens of thousands. */
export const PACKS_KEPT = 20_000

/**
 * Keeps "why did the persona remember this?" answerable without letting the history grow
 * without end: the node's latest few packs, and the latest PACKS_KEPT over the whole memory
 * (checked every hundred packs, so the sweep costs nothing per message).
 */
export function prunePacks(store: MemoryStore, nodeId: string, kept = PACKS_KEPT): void {
  store
    .prepare(
      `DELETE FROM memory_packs WHERE node_id = ? AND id NOT IN
         (SELECT id FROM memory_packs WHERE node_id = ? ORDER BY id DESC LIMIT ${PACKS_PER_NODE})`,
    )
    .run(nodeId, nodeId)
  const newest = (store.prepare('SELECT max(id) AS id FROM memory_packs').get() as { id: number | null }).id ?? 0
  if (newest % 100 === 0) store.prepare('DELETE FROM memory_packs WHERE id <= ?').run(newest - kept)
}
