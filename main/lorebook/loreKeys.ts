/** A key written `/pattern/flags` (SillyTavern's form), or null for a plain key. */
export function regexKey(key: string): RegExp | null {
  const m = /^\/([\s\S]+)\/([a-z]*)$/.exec(key)
  if (!m) return null
  const flags = m[2]!.replace(/[gy]/g, '') // a key only asks whether it occurs; lastIndex must not carry over
  try {
    return new RegExp(m[1]!, flags)
  } catch {
    return null
  }
}

/** Why a key written as a regular expression cannot be one, or null when it is fine or plain. */
export function regexKeyProblem(key: string): string | null {
  const m = /^\/([\s\S]+)\/([a-z]*)$/.exec(key)
  if (!m) return null
  try {
    new RegExp(m[1]!, m[2]!)
    return null
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

const WORD = /[\p{L}\p{N}_]/u
/** Scripts written without spaces between words: a whole-word key there is any occurrence. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u

export function isUnspaced(key: string): boolean {
  return UNSPACED.test(key)
}

/** The occurrence at [start, end) of `text` is not part of a longer word. */
export function onWordBoundary(text: string, start: number, end: number): boolean {
  return (start === 0 || !WORD.test(text[start - 1]!)) && (end >= text.length || !WORD.test(text[end]!))
}
