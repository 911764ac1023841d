/**
 * `patch_content` (seed 000): plain text is appended; a unified diff is applied strictly —
 * every removed and context line must match the document exactly, or nothing changes and
 * the error says which hunk failed and why.
 */
export type PatchResult = { ok: true; text: string; mode: 'append' | 'diff' } | { ok: false; reason: string }

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

export function isUnifiedDiff(patch: string): boolean {
  return patch.split('\n').some((line) => HUNK.test(line))
}

export function applyPatch(original: string, patch: string): PatchResult {
  if (!isUnifiedDiff(patch)) {
    const joiner = original === '' || original.endsWith('\n') ? '' : '\n'
    return { ok: true, text: original + joiner + patch, mode: 'append' }
  }
  const parsed = parseHunks(patch)
  if (typeof parsed === 'string') return { ok: false, reason: parsed }
  const endsWithNewline = original.endsWith('\n')
  const lines = original === '' ? [] : (endsWithNewline ? original.slice(0, -1) : original).split('\n')
  const out: string[] = []
  let cursor = 0
  for (const [n, hunk] of parsed.entries()) {
    const at = locate(lines, hunk.old, hunk.oldStart - 1, cursor)
    if (typeof at === 'string') return { ok: false, reason: `hunk ${n + 1} (@@ -${hunk.oldStart}): ${at}` }
    out.push(...lines.slice(cursor, at), ...hunk.new)
    cursor = at + hunk.old.length
  }
  out.push(...lines.slice(cursor))
  const text = out.join('\n') + (endsWithNewline && out.length > 0 ? '\n' : '')
  return { ok: true, text, mode: 'diff' }
}

interface Hunk {
  oldStart: number
  old: string[]
  new: string[]
}

function parseHunks(patch: string): Hunk[] | string {
  const hunks: Hunk[] = []
  let current: Hunk | null = null
  for (const line of patch.replace(/\n$/, '').split('\n')) {
    const header = HUNK.exec(line)
    if (header) {
      current = { oldStart: Number(header[1]), old: [], new: [] }
      hunks.push(current)
      continue
    }
    if (!current) {
      if (line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('diff ') || line.startsWith('index '))
        continue
      return `unexpected line before the first hunk: "${line.slice(0, 80)}"`
    }
    if (line.startsWith('\\')) continue // "\ No newline at end of file"
    const mark = line[0]
    const body = line.slice(1)
    if (mark === ' ' || line === '') {
      current.old.push(body)
      current.new.push(body)
    } else if (mark === '-') current.old.push(body)
    else if (mark === '+') current.new.push(body)
    else return `line "${line.slice(0, 80)}" starts with neither " ", "-" nor "+"`
  }
  if (hunks.length === 0) return 'no hunks found'
  return hunks
}

/**
 * Where the hunk's old lines sit: at the line number it names when they match there,
 * else at their one exact match after the previous hunk. No fuzz: a line that differs
 * even in spacing is a failure.
 */
function locate(lines: string[], old: string[], hint: number, from: number): number | string {
  const matchesAt = (i: number) =>
    i >= from && i + old.length <= lines.length && old.every((l, k) => lines[i + k] === l)
  if (old.length === 0) return Math.max(from, Math.min(hint + 1, lines.length))
  if (matchesAt(hint)) return hint
  const found: number[] = []
  for (let i = from; i + old.length <= lines.length; i++) if (matchesAt(i)) found.push(i)
  if (found.length === 1) return found[0]!
  if (found.length > 1) return `its lines occur ${found.length} times; the line number does not say which`
  return `the document has no lines matching "${old[0]!.slice(0, 60)}"${old.length > 1 ? ` (+${old.length - 1} more)` : ''}`
}
