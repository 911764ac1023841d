import { openDatabase } from '../../main/db/open'
import { tokenCount } from '../../main/kernel/tokens'
import { isoDate } from '../../main/memory/store/store'
import type { Conversation } from './locomoData'

// The baseline a MemoryPack must beat (issue 12): every turn a row in SQLite FTS5, ranked by
// FTS5's bm25() for the question's words OR-ed, packed by rank into the same budget as a pack's
// episodes are (one "- [date] speaker: text" line each, under the pack's header).

const HEADER_TOKENS = tokenCount(
  '# Memory (what you remember; use it when it helps, never invent beyond it)\n## Episodes',
)

export interface Baseline {
  /** The evidence ids packed for a question. */
  pack(question: string, budget: number): Set<string>
  close(): void
}

/** `tokenizer`: FTS5's, e.g. "unicode61" (the issue's baseline) or "porter unicode61". */
export function bm25Baseline(conversation: Conversation, tokenizer = 'unicode61'): Baseline {
  const { db } = openDatabase(':memory:', { migrations: [], label: 'bm25 baseline' })
  db.exec(`CREATE VIRTUAL TABLE turns USING fts5(text, dia_id UNINDEXED, tokenize = '${tokenizer}')`)
  const insert = db.prepare('INSERT INTO turns (text, dia_id) VALUES (?, ?)')
  const lines = new Map<string, number>()
  db.transaction(() => {
    for (const t of conversation.turns) {
      const text = `${t.speaker}: ${t.text}`
      insert.run(text, t.id)
      lines.set(t.id, tokenCount(`- [${isoDate(t.at)}] ${text}`))
    }
  }).immediate()
  const search = db.prepare('SELECT dia_id FROM turns WHERE turns MATCH ? ORDER BY rank')
  return {
    pack(question, budget) {
      const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
      const packed = new Set<string>()
      if (words.length === 0) return packed
      let used = HEADER_TOKENS
      for (const { dia_id } of search.all(words.map((w) => `"${w}"`).join(' OR ')) as Array<{ dia_id: string }>) {
        const cost = lines.get(dia_id) ?? 0
        if (used + cost > budget) continue
        used += cost
        packed.add(dia_id)
      }
      return packed
    },
    close: () => db.close(),
  }
}
