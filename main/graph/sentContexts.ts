import type { ContextPreview } from '@shared/contract'
import type { Db } from '../db/open'
import { statements } from '../db/statements'
import {
  BODY_LINES,
  decodeContextParts,
  decodeIds,
  encodeContextParts,
  keptBlocks,
  linesOfLongPart,
  type KeptBlocks,
  type PartRows,
} from './sentContextCodec'

// The rows of sent contexts (node_sent_contexts, sent_context_parts): how a context is encoded
// into them is sentContextCodec.ts; graph migration 12 rewrote the rows stored before with these.
export { FORMAT_PARTS, FORMAT_WHOLE, packContext, unpackContext } from './sentContextCodec'

/** Blocks of dropped ids written lately, by database (sentContextCodec.ts says why). */
const kept = new WeakMap<Db, KeptBlocks>()

function partRows(db: Db): PartRows {
  const sql = statements(db)
  return {
    find: (hash) => sql('SELECT id FROM sent_context_parts WHERE hash = ?').pluck().get(hash) as number | undefined,
    insert: (hash, body, packed) =>
      Number(
        sql('INSERT INTO sent_context_parts (hash, body, packed) VALUES (?, ?, ?)').run(hash, body, packed)
          .lastInsertRowid,
      ),
    exists: (id) => sql('SELECT 1 FROM sent_context_parts WHERE id = ?').get(id) !== undefined,
  }
}

/** Writes a context's parts (each distinct one once) and answers what the node's row holds. */
export function storeContextParts(db: Db, context: ContextPreview): { context: Buffer; part_ids: Buffer } {
  let blocks = kept.get(db)
  if (!blocks) kept.set(db, (blocks = keptBlocks()))
  return encodeContextParts(partRows(db), blocks, context)
}

/** The context a `format` 2 row stands for, exactly as it was saved. */
export function loadContextParts(db: Db, packed: Buffer, partIds: Buffer): ContextPreview {
  const get = db.prepare('SELECT body, packed FROM sent_context_parts WHERE id = ?')
  return decodeContextParts((id) => get.get(id) as { body: Buffer; packed: number } | undefined, packed, partIds)
}

/**
 * Removes parts no context refers to any more, when a context was deleted or replaced since the
 * last sweep (a trigger notes it in sent_context_parts_sweep). Run at start-up: a node's
 * deletion costs nothing more than its row.
 */
export function sweepContextParts(db: Db): number {
  const due = db.prepare('SELECT 1 FROM sent_context_parts_sweep').get()
  if (!due) return 0
  return db
    .transaction(() => {
      const used = new Set<number>()
      const rows = db
        .prepare('SELECT part_ids FROM node_sent_contexts WHERE part_ids IS NOT NULL')
        .pluck()
        .iterate() as Iterable<Buffer>
      for (const ids of rows) for (const id of decodeIds(ids)) used.add(id)
      // The lines of the long parts still used.
      const long = db.prepare('SELECT id, body FROM sent_context_parts WHERE packed = ?').all(BODY_LINES) as Array<{
        id: number
        body: Buffer
      }>
      for (const { id, body } of long) {
        if (!used.has(id)) continue
        for (const line of linesOfLongPart(body)) used.add(line)
      }
      const remove = db.prepare('DELETE FROM sent_context_parts WHERE id = ?')
      let removed = 0
      for (const id of db.prepare('SELECT id FROM sent_context_parts').pluck().all() as number[])
        if (!used.has(id)) removed += remove.run(id).changes
      db.prepare('DELETE FROM sent_context_parts_sweep').run()
      return removed
    })
    .immediate()
}
