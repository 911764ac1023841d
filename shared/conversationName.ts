import { cleanName } from './contract/names'

/**
 * How wide a name made from a prompt may be, in columns: a Latin letter is one, a CJK
 * character or a full-width form two, so "about 40 characters" of English and about 20 of
 * Japanese fill the same space in the conversation list.
 */
export const PROMPT_NAME_WIDTH = 40

/** Markdown that opens a line and is no part of what it says: headings, quotes, list marks. */
const LEADING_MARKS = /^(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)+/

/**
 * A conversation's name made from its first prompt: the first line that says something,
 * without leading Markdown marks, cut at a word boundary (Intl.Segmenter knows where words
 * end in Japanese and Chinese, which have no spaces) to PROMPT_NAME_WIDTH columns, with "…"
 * when something was cut. Null when the prompt has no text (a picture sent alone).
 */
export function nameFromPrompt(prompt: string, maxWidth = PROMPT_NAME_WIDTH): string | null {
  const line = prompt
    .split(/\r\n|\r|\n/)
    .map((l) => cleanName(l).replace(LEADING_MARKS, '').replace(/\s+/g, ' ').trim())
    .find((l) => l.length > 0)
  if (!line) return null
  if (width(line) <= maxWidth) return line
  let kept = ''
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'word' }).segment(line)) {
    // One column is left for the ellipsis.
    if (width(kept + segment) > maxWidth - 1) break
    kept += segment
  }
  // A word so long that stopping before it would leave less than half the width (a URL, a long
  // compound) is cut inside.
  if (width(kept.trim()) < maxWidth / 2) kept = cutToWidth(line, maxWidth - 1)
  return `${kept.trimEnd().replace(/[\s,.;:、。，．・]+$/u, '')}…`
}

function width(text: string): number {
  let w = 0
  for (const ch of text) w += isWide(ch.codePointAt(0)!) ? 2 : 1
  return w
}

function cutToWidth(text: string, maxWidth: number): string {
  let out = ''
  for (const ch of text) {
    if (width(out + ch) > maxWidth) break
    out += ch
  }
  return out
}

/** East Asian wide and full-width ranges (the common blocks, not the whole Unicode table). */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
}
