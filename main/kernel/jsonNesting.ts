/**
 * Where JSON text first nests arrays or objects deeper than `max`, as a 1-based line, or null
 * when it never does. One pass over the characters, strings skipped, no recursion: checked
 * before JSON.parse, which takes seconds over a million brackets and hands back a value whose
 * JSON.stringify overflows the stack (an `internal` error naming no file).
 */
export function jsonTooDeep(text: string, max: number): { line: number } | null {
  let depth = 0
  let line = 1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) line++
    else if (inString) {
      if (c === 92)
        i++ // a backslash: the next character is escaped (a newline cannot be)
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return { line }
    } else if (c === 93 || c === 125) depth--
  }
  return null
}
