import { stringify } from 'yaml'
import { NOT_A_STRING } from './yamlSubset'

// A fast writer for the data Loomverse exports. It gives exactly the text of yaml's
// `stringify(value, { lineWidth: 0 })` without building a document first, which on a
// 10,000-node flow is most of the time of an export. It writes mappings, sequences,
// numbers, booleans, null and one-line strings itself, with yaml's rules for where a string
// needs quotes and which ones. Any other pair or item (a multi-line string, a control
// character, a nested sequence, a key yaml treats specially) is written by yaml on its own,
// and indented to where it stands.

export const OPTIONS = { lineWidth: 0 }

/** Where yaml will not write a string plain (its stringifyString's plainString). */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/
/** Left to yaml: line breaks, tabs, controls, lone surrogates, and what YAML 1.1 called line breaks. */
// eslint-disable-next-line no-control-regex
const LEFT_TO_YAML = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]|[\u{d800}-\u{dfff}]/u
/** Document markers at the start of a string: yaml quotes such a key in the top-level mapping. */
const MARKER = /^(?:%|---|\.\.\.)/
const MAX_KEY = 1000

class Unsupported extends Error {}

/** Thrown when not even a single pair can be left to yaml: the whole text is. */
class LeftToYaml extends Error {}

function unsupported(): never {
  throw new Unsupported('left to yaml')
}

/** The YAML text of a mapping as toYaml writes it; undefined for anything else (or an empty one). */
export function writeYamlSubset(value: unknown): string | undefined {
  const entries = entriesOf(value)
  if (!entries || entries.length === 0) return undefined
  const lines: string[] = []
  try {
    mapping(entries, '', '', lines)
  } catch (e) {
    if (e instanceof LeftToYaml) return undefined
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

/**
 * A mapping's lines; the first starts with `lead` (an item's `- `, or `indent`), the others
 * with `indent`. A pair this writer cannot write is written by yaml, alone.
 */
function mapping(entries: Array<[unknown, unknown]>, indent: string, lead: string, lines: string[]): void {
  entries.forEach(([k, v], i) => {
    const first = i === 0 ? lead : indent
    const before = lines.length
    try {
      pair(k, v, indent, first, lines)
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e
      lines.length = before
      // As the only pair of a top-level mapping, or of the mapping in a top-level sequence,
      // yaml writes it exactly as it would here, less the indentation in front — but for a
      // key starting like a document marker, which only the top-level mapping quotes.
      if (indent !== '' && typeof k === 'string' && MARKER.test(k)) throw new LeftToYaml('left to yaml')
      if (first === indent) lines.push(...indented(stringify(new Map([[k, v]]), OPTIONS), indent))
      else lines.push(...indented(stringify([new Map([[k, v]])], OPTIONS), indent.slice(2)))
    }
  })
}

function pair(k: unknown, v: unknown, indent: string, first: string, lines: string[]): void {
  if (typeof k !== 'string' || k.length > MAX_KEY) unsupported()
  const head = `${first}${string(k, indent === '')}:`
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
}

function sequence(items: readonly unknown[], indent: string, lines: string[]): void {
  for (const item of items) {
    const map = entriesOf(item)
    if (map && map.length > 0) {
      mapping(map, indent + '  ', indent + '- ', lines)
      continue
    }
    try {
      if (Array.isArray(item) && item.length > 0) unsupported()
      lines.push(`${indent}- ${map ? '{}' : scalar(item)}`)
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e
      lines.push(...indented(stringify([item], OPTIONS), indent))
    }
  }
}

/** yaml's lines, each but the empty ones (inside a literal block) behind `indent`. */
function indented(text: string, indent: string): string[] {
  const lines = text.split('\n')
  lines.pop() // after the final line break
  return indent === '' ? lines : lines.map((l) => (l === '' ? l : indent + l))
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
function string(value: string, topKey = false): string {
  if (LEFT_TO_YAML.test(value)) unsupported()
  if (!NOT_PLAIN.test(value) && !NOT_A_STRING.test(value) && !(topKey && MARKER.test(value))) return value
  // yaml's quotedString: single quotes when only double ones occur, else JSON-style double.
  return value.includes('"') && !value.includes("'") ? `'${value}'` : JSON.stringify(value)
}
