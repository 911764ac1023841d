import { NOT_A_STRING } from './yamlSubset'

// A fast writer for the plain data Loomverse exports: mappings, sequences, numbers,
// booleans, null and one-line strings. For such values it gives exactly the text of yaml's
// `stringify(value, { lineWidth: 0 })` — the same rules for where a string needs quotes and
// which quotes — without building a document first, which on a 10,000-node flow is most of
// the time of an export. Anything else (a multi-line string, a nested sequence, a control
// character, a key or string yaml treats specially) makes it answer `undefined`, and the
// caller uses yaml itself.

/** Where yaml will not write a string plain (its stringifyString's plainString). */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/
/** Left to yaml: line breaks, tabs, controls, lone surrogates, and what YAML 1.1 called line breaks. */
// eslint-disable-next-line no-control-regex
const LEFT_TO_YAML = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]|[\u{d800}-\u{dfff}]/u
/** Document markers at the start of a string, which yaml handles by context. */
const MARKER = /^(?:%|---|\.\.\.)/
const MAX_KEY = 1000

class Unsupported extends Error {}

function unsupported(): never {
  throw new Unsupported('left to yaml')
}

/** The YAML text of `value` as toYaml writes it, or undefined when yaml has to write it. */
export function writeYamlSubset(value: unknown): string | undefined {
  const lines: string[] = []
  try {
    const entries = entriesOf(value) ?? unsupported()
    if (entries.length === 0) unsupported()
    mapping(entries, '', '', lines)
  } catch (e) {
    if (e instanceof Unsupported) return undefined
    throw e
  }
  return lines.join('\n') + '\n'
}

/** A plain object's or Map's entries; null for anything else. */
function entriesOf(value: unknown): Array<[unknown, unknown]> | null {
  if (value instanceof Map) return [...(value as Map<unknown, unknown>)]
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return null
  return Object.entries(value)
}

/** A mapping's lines; the first starts with `lead` (say an item's `- `), the others with `indent`. */
function mapping(entries: Array<[unknown, unknown]>, indent: string, lead: string, lines: string[]): void {
  entries.forEach(([k, v], i) => {
    if (typeof k !== 'string' || k.length > MAX_KEY) unsupported()
    const head = `${i === 0 ? lead : indent}${string(k)}:`
    const inner = indent + '  '
    const map = entriesOf(v)
    if (map && map.length > 0) {
      lines.push(head)
      mapping(map, inner, inner, lines)
    } else if (Array.isArray(v) && v.length > 0) {
      lines.push(head)
      sequence(v, inner, lines)
    } else {
      lines.push(`${head} ${map ? '{}' : scalar(v)}`)
    }
  })
}

function sequence(items: readonly unknown[], indent: string, lines: string[]): void {
  for (const item of items) {
    const map = entriesOf(item)
    if (map && map.length > 0) mapping(map, indent + '  ', indent + '- ', lines)
    else if (Array.isArray(item) && item.length > 0) unsupported()
    else lines.push(`${indent}- ${map ? '{}' : scalar(item)}`)
  }
}

function scalar(value: unknown): string {
  if (Array.isArray(value)) return '[]' // only ever empty here
  if (value === null) return 'null'
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) unsupported()
    return Object.is(value, -0) ? '-0' : JSON.stringify(value)
  }
  if (typeof value === 'string') return string(value)
  return unsupported()
}

/** A one-line string as yaml writes it: plain where that reads back as the string, else quoted. */
function string(value: string): string {
  if (LEFT_TO_YAML.test(value) || MARKER.test(value)) unsupported()
  if (!NOT_PLAIN.test(value) && !NOT_A_STRING.some((r) => r.test(value))) return value
  // yaml's quotedString: single quotes when only double ones occur, else JSON-style double.
  return value.includes('"') && !value.includes("'") ? `'${value}'` : JSON.stringify(value)
}
