import { MAX_BOOK_ENTRIES } from '../../kernel/importLimits'

/** A JSON object as read from a file. */
export type Raw = Record<string, unknown>

/** A book file refused: `field` says where (`entries.3.key`), the message why. */
export class BookFormatError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`)
    this.name = 'BookFormatError'
  }
}

export function str(v: unknown, at: string): string {
  if (typeof v !== 'string') throw new BookFormatError(at, `must be text, not ${kind(v)}`)
  return v
}

export function strings(v: unknown, at: string): string[] {
  if (!Array.isArray(v)) throw new BookFormatError(at, `must be a list of text, not ${kind(v)}`)
  return v.map((s, i) => str(s, `${at}.${i}`))
}

export function bool(v: unknown, at: string): boolean {
  if (typeof v !== 'boolean') throw new BookFormatError(at, `must be true or false, not ${kind(v)}`)
  return v
}

export function num(v: unknown, at: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new BookFormatError(at, `must be a number, not ${kind(v)}`)
  if (v < min || v > max) throw new BookFormatError(at, `must be between ${min} and ${max}, not ${v}`)
  return v
}

export function int(v: unknown, at: string, min: number, max: number): number {
  const n = num(v, at, min, max)
  if (!Number.isInteger(n)) throw new BookFormatError(at, `must be a whole number, not ${n}`)
  return n
}

/** Refuses a book of more entries than any importer takes (`entries` a list or World Info's object). */
export function entryCount(entries: object, at: string): void {
  const n = Array.isArray(entries) ? entries.length : Object.keys(entries).length
  if (n > MAX_BOOK_ENTRIES) throw new BookFormatError(at, `holds ${n} entries, over the limit of ${MAX_BOOK_ENTRIES}`)
}

function kind(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'string') return `text ${JSON.stringify(v.slice(0, 40))}`
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`
}
