import { VizpromptError } from './vizpromptError'

// The seed's map files: a header row, then one tab-separated row per file. Values are
// relpaths, UUIDs and timestamps, which never hold a tab or a line break.

export function toTsv(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  for (const cell of rows.flat()) {
    if (/[\t\r\n]/.test(cell)) throw new Error(`a map value cannot hold a tab or line break: ${JSON.stringify(cell)}`)
  }
  return [header, ...rows].map((r) => r.join('\t') + '\n').join('')
}

export interface TsvRow {
  cells: string[]
  line: number
}

/** Rows after the header, each with its line; CRLF from a Windows editor is accepted. */
export function parseTsv(text: string, header: readonly string[], file: string): TsvRow[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''))
  if (lines.at(-1) === '') lines.pop()
  if (lines[0] !== header.join('\t')) {
    throw new VizpromptError(file, 1, `the header must be "${header.join('\\t')}"`)
  }
  return lines.slice(1).flatMap((l, i) => {
    const line = i + 2
    if (l === '') return []
    const cells = l.split('\t')
    if (cells.length !== header.length) {
      throw new VizpromptError(file, line, `expected ${header.length} tab-separated columns, found ${cells.length}`)
    }
    return [{ cells, line }]
  })
}
