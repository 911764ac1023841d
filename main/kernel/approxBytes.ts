// What a value kept in a cache takes on V8's heap, roughly. Caches bounded by a count, or by
// the characters of the text their values were made from, held several times their bound: a
// pack line keeps its text three times over (text, key, bullet), and a unit row is twenty
// fields. Sized by this, a cache's bound is a bound on memory.

/** A heap object's header; a field or element slot (pointers are 8 bytes in 64-bit Node). */
const HEADER = 16
const SLOT = 8
/** Nested values counted this deep; below it, only their header. */
const DEPTH = 6

/** A character V8 stores in two bytes (anything past Latin-1) makes the whole string two-byte. */
const TWO_BYTE = /[\u0100-\uffff]/

/**
 * Roughly the bytes `value` takes: strings at one or two bytes a character, arrays and plain
 * objects with what they hold, numbers and the like as a slot. A part shared by two values is
 * counted in each, so the estimate errs on the side of more.
 */
export function approxBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return HEADER + value.length * (TWO_BYTE.test(value) ? 2 : 1)
  if (value === null || typeof value !== 'object') return SLOT
  if (depth >= DEPTH) return HEADER
  let bytes = HEADER
  for (const v of Array.isArray(value) ? value : Object.values(value)) bytes += SLOT + approxBytes(v, depth + 1)
  return bytes
}
