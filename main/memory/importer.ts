import { z } from 'zod'
import { UnitKind } from './enums'
import type { MemoryStore } from './store'

/** One line of an import file. `time`: ISO 8601 or epoch (seconds, or milliseconds when that large). */
const Line = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  speaker: z.string().max(200),
  text: z.string(),
  time: z.union([z.string(), z.number()]),
})

export interface ImportResult {
  imported: number
  skipped: number
  errors: string[]
  unitIds: number[]
}

export function parseTime(value: string | number): number | null {
  if (typeof value === 'number' || /^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value)
    return Math.floor(n > 1e12 ? n / 1000 : n)
  }
  const t = Date.parse(value)
  return Number.isNaN(t) ? null : Math.floor(t / 1000)
}

/**
 * Stores each message as an EPISODE keeping its `id` as the external reference; a message
 * already imported (same id) is skipped, so importing a file twice adds nothing.
 */
export function importLines(store: MemoryStore, text: string, source = 'import'): ImportResult {
  const result: ImportResult = { imported: 0, skipped: 0, errors: [], unitIds: [] }
  const lines = text.split(/\r?\n/)
  const one = lineImporter(store, source, result)
  store.db.transaction(() => lines.forEach(one)).immediate()
  return result
}

/**
 * The same, a few dozen lines per transaction with a turn of the event loop between them:
 * on the main thread a long chat log must not freeze the window or a reply being streamed.
 */
export async function importLinesInSteps(
  store: MemoryStore,
  text: string,
  options: { source?: string; linesPerStep?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<ImportResult> {
  const result: ImportResult = { imported: 0, skipped: 0, errors: [], unitIds: [] }
  const lines = text.split(/\r?\n/)
  const one = lineImporter(store, options.source ?? 'import', result)
  const step = options.linesPerStep ?? 64
  for (let start = 0; start < lines.length; start += step) {
    store.db.transaction(() => lines.slice(start, start + step).forEach((raw, k) => one(raw, start + k))).immediate()
    options.onProgress?.(Math.min(start + step, lines.length), lines.length)
    await new Promise((resolve) => setImmediate(resolve))
  }
  return result
}

/** Imports one line (index `i`, for error messages) into `result`. */
function lineImporter(store: MemoryStore, source: string, result: ImportResult): (raw: string, i: number) => void {
  const exists = store.prepare('SELECT 1 FROM units WHERE source = ? AND external_ref = ?')
  return (raw, i) => {
    if (!raw.trim()) return
    let parsed: z.infer<typeof Line>
    try {
      parsed = Line.parse(JSON.parse(raw))
    } catch (e) {
      result.skipped++
      if (result.errors.length < 20)
        result.errors.push(`line ${i + 1}: ${e instanceof z.ZodError ? e.issues[0]?.message : (e as Error).message}`)
      return
    }
    const at = parseTime(parsed.time)
    if (at === null) {
      result.skipped++
      if (result.errors.length < 20) result.errors.push(`line ${i + 1}: unreadable time "${parsed.time}"`)
      return
    }
    if (exists.get(source, parsed.id)) {
      result.skipped++
      return
    }
    result.unitIds.push(
      store.createUnit({
        kind: UnitKind.EPISODE,
        source,
        occurred_at: at,
        external_ref: parsed.id,
        payload: { user_text: parsed.text, context_note: `speaker: ${parsed.speaker}` },
      }),
    )
    result.imported++
  }
}
