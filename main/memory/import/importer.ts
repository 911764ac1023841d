import { UnitKind } from '../store/enums'
import { jsonlRow, type SourceRow } from './importSources'
import type { MemoryStore } from '../store/store'

export interface ImportResult {
  imported: number
  /** Lines already imported (same id) and lines that could not be read. */
  skipped: number
  /** Lines that could not be read: each is in `errors` (the first ones) with its line and why. */
  unreadable: number
  errors: string[]
  unitIds: number[]
}

/** Past this many, unreadable lines are counted but not listed. */
const ERRORS_LISTED = 20

/** JSONL text in one transaction: for benchmarks and tests, which have the text in hand. */
export function importLines(store: MemoryStore, text: string, source = 'import'): ImportResult {
  const result = emptyResult()
  const write = episodeWriter(store, source, result)
  const rows = text.split('\n').map((raw, i) => jsonlRow(raw.replace(/\r$/, ''), i + 1))
  store.db.transaction(() => rows.forEach((row) => row && write(row))).immediate()
  return result
}

/**
 * Messages from a file, a few dozen per transaction with a turn of the event loop between
 * them: on the main thread a long chat log must not freeze the window or a reply being
 * streamed. `total` is the number of rows expected, for progress.
 */
export async function importRowsInSteps(
  store: MemoryStore,
  rows: AsyncIterable<SourceRow | null> | Iterable<SourceRow | null>,
  options: { total: number; source?: string; rowsPerStep?: number; onProgress?: (done: number, total: number) => void },
): Promise<ImportResult> {
  const result = emptyResult()
  const write = episodeWriter(store, options.source ?? 'import', result)
  const step = options.rowsPerStep ?? 64
  let batch: SourceRow[] = []
  let done = 0
  const flush = async () => {
    const rows = batch
    batch = []
    store.db.transaction(() => rows.forEach(write)).immediate()
    options.onProgress?.(Math.min(done, options.total), options.total)
    await new Promise((resolve) => setImmediate(resolve))
  }
  for await (const row of rows) {
    done++
    if (row) batch.push(row)
    if (batch.length >= step) await flush()
  }
  done = options.total
  await flush()
  return result
}

function emptyResult(): ImportResult {
  return { imported: 0, skipped: 0, unreadable: 0, errors: [], unitIds: [] }
}

/**
 * Stores each message as an EPISODE keeping its id as the external reference; one already
 * imported (same id) is skipped, so importing a file twice adds nothing.
 */
function episodeWriter(store: MemoryStore, source: string, result: ImportResult): (row: SourceRow) => void {
  const exists = store.prepare('SELECT 1 FROM units WHERE source = ? AND external_ref = ?')
  return (row) => {
    if ('problem' in row) {
      result.skipped++
      result.unreadable++
      if (result.errors.length < ERRORS_LISTED) {
        result.errors.push(`${row.line === null ? '' : `line ${row.line}: `}${row.problem}`)
      }
      return
    }
    const { id, speaker, text, at } = row.message
    if (exists.get(source, id)) {
      result.skipped++
      return
    }
    result.unitIds.push(
      store.createUnit({
        kind: UnitKind.EPISODE,
        source,
        occurred_at: at,
        external_ref: id,
        payload: { user_text: text, context_note: `speaker: ${speaker}` },
      }),
    )
    result.imported++
  }
}
