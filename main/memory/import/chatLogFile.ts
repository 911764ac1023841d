import { basename } from 'node:path'
import { openImportFile, importFileLines, readImportFile, type ChosenFile } from '../../kernel/importFile'
import { ImportFileError } from '../../kernel/importFileError'
import { MAX_CHAT_LOG_BYTES, MAX_LOCOMO_BYTES } from '../../kernel/importLimits'
import { TranscriptReader, formatOf, jsonlRow, locomoRows, type ImportFormat, type SourceRow } from './importSources'

// A memory import's messages, from the file `chooseImportPath` allowed.

export interface ChatLog {
  format: ImportFormat
  /** Rows to expect, for progress. */
  total: number
  /** The file's messages (null for a blank line), read again from the file as they are asked for. */
  rows: AsyncIterable<SourceRow | null>
}

/**
 * Checks the whole file first — a regular file within the size limit, UTF-8 without NUL —
 * so a refused import writes nothing; then hands out its rows, streamed for JSONL and
 * transcripts. `now` is the time of transcript lines that give none.
 */
export async function readChatLog(file: ChosenFile, now: number): Promise<ChatLog> {
  const missing = (e: unknown): never => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ImportFileError(file.name, null, 'no such file', 'not_found')
    throw e
  }
  const format = formatOf(file.name, await firstLine(file).catch(missing))
  if (format === 'locomo') {
    const text = await readImportFile(file.path, { name: file.name, maxBytes: MAX_LOCOMO_BYTES }).catch(missing)
    const rows = locomoRows(text, file.name)
    return { format, total: rows.length, rows: toAsync(rows) }
  }
  let total = 0
  for await (const _ of lines(file)) total++
  const transcript = new TranscriptReader(basename(file.name), now)
  const row = format === 'jsonl' ? jsonlRow : (text: string, line: number) => transcript.row(text, line)
  return {
    format,
    total,
    rows: (async function* () {
      for await (const { text, line } of lines(file)) yield row(text, line)
    })(),
  }
}

async function* lines(file: ChosenFile): AsyncGenerator<{ line: number; text: string }> {
  const handle = await openImportFile(file.path, { name: file.name, maxBytes: MAX_CHAT_LOG_BYTES })
  try {
    yield* importFileLines(handle, file.name)
  } finally {
    await handle.close()
  }
}

/** The first line that is not blank, for telling JSONL from a transcript; the file is checked on the way. */
async function firstLine(file: ChosenFile): Promise<string> {
  if (/\.json$/i.test(file.name)) return ''
  for await (const { text } of lines(file)) if (text.trim()) return text
  return ''
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items
}
