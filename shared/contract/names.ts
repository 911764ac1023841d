import { z } from 'zod'

/** Bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069): they make a name show other than it reads. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g
/** C0 controls (NUL too), DEL and C1 controls: nothing a name shows. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001F\u007F-\u009F]+/g

/** Makes a name safe to show: bidi overrides go, other control characters become one space. */
export function cleanName(text: string): string {
  return text.replace(BIDI_CONTROLS, '').replace(CONTROLS, ' ')
}

/**
 * A name the user gives something shown to others (a persona, a building, an item, a flow):
 * NUL is refused with bad_input (nothing legitimate contains it), bidi overrides are stripped
 * and other control characters turned into spaces, then it is trimmed and its length checked.
 */
export function DisplayName(max: number) {
  return z
    .string()
    .refine((s) => !s.includes('\u0000'), { message: 'must not contain a NUL character (U+0000)' })
    .transform(cleanName)
    .pipe(z.string().trim().min(1).max(max))
}

/** A file or folder path a caller names: NUL is refused here, at the router, before any file call sees it. */
export const FilePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !s.includes('\u0000'), { message: 'must not contain a NUL character (U+0000)' })

/**
 * Words a caller searches for: NUL is refused (nothing legitimate contains it, and SQLite's
 * full-text query parser ends a string there: a quoted phrase with a NUL inside came back as
 * "unterminated string", an internal error).
 */
export function SearchText(max: number) {
  return z
    .string()
    .max(max)
    .refine((s) => !s.includes('\u0000'), { message: 'must not contain a NUL character (U+0000)' })
}
