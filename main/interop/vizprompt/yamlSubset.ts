// A fast reader for the block YAML that Loomverse's own exports consist of: mappings and
// sequences indented by spaces, string keys, and values that are plain, quoted, `[]`, `{}`
// or a literal block (`|`, `|-`, `|+`). A 10,000-node flow file is read in milliseconds
// rather than seconds.
//
// It is strict in the other direction: anything outside that subset — comments, anchors,
// tags, folded or indented-indicator blocks, flow collections, tabs, stray blank lines,
// duplicate keys, a plain scalar that could mean anything but the string it looks like —
// makes it answer `undefined`, and the caller hands the text to the full parser instead.
// So for every text it accepts, the value is exactly what `yaml`'s parseDocument(text)
// .toJS() gives (YAML 1.2, core schema), and a text the full parser would refuse is never
// accepted.

/** Never in the subset: tabs, CR, other controls, BOM, and what YAML 1.1 counted as line breaks. */
// eslint-disable-next-line no-control-regex
const OUTSIDE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/

// The core schema's implicit types (yaml's schema/core). A plain scalar matching one of
// these is not a string; of them, only the canonical number forms below are read here.
const CORE_TYPES = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
]
/** Any of CORE_TYPES, in one pass. */
export const NOT_A_STRING = new RegExp(CORE_TYPES.map((r) => `(?:${r.source})`).join('|'))
/** Integers that a double holds exactly, without a plus sign or leading zeros. */
const INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/
/** Fractions and exponents as JavaScript's String(number) writes them. */
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:e[-+][0-9]+)?|e[-+][0-9]+)$/
/** A plain scalar may not start with an indicator, nor with `.` (which could begin `...`). */
const PLAIN_START = /^[^\s\-?:,[\]{}#&*!|>'"%@`.]/
/** Double-quoted text using only the escapes JSON has too, with the same meaning. */
const DOUBLE_QUOTED = /^"(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/
const SINGLE_QUOTED = /^'(?:[^']|'')*'/
/** yaml refuses an implicit key longer than 1024 characters; the subset stays below. */
const MAX_KEY = 1000

/** Thrown (and caught in readYamlSubset) when the text leaves the subset. */
const OUT = new Error('outside the YAML subset')

/** The value of `text`, or undefined when the text is not in the subset (see above). */
export function readYamlSubset(text: string): { value: unknown } | undefined {
  // A last line without its line break would change what a literal block at the end means.
  if (!text.endsWith('\n') || OUTSIDE.test(text)) return undefined
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  try {
    const reader = new SubsetReader(lines)
    const value = reader.block(0)
    return reader.next === lines.length ? { value } : undefined
  } catch (e) {
    if (e === OUT) return undefined
    throw e
  }
}

function out(): never {
  throw OUT
}

class SubsetReader {
  /** The line to read next. */
  next = 0

  constructor(private readonly lines: readonly string[]) {}

  /** The collection starting at the next line, which is indented by exactly `indent`. */
  block(indent: number): unknown {
    const line = this.lines[this.next] ?? out()
    if (indentOf(line) !== indent) out()
    return line.startsWith('- ', indent) ? this.sequence(indent) : this.mapping(indent, line.slice(indent))
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = []
    for (let line = this.lines[this.next]; line !== undefined; line = this.lines[this.next]) {
      const at = indentOf(line)
      if (at < indent) break
      if (at > indent || !line.startsWith('- ', indent)) out()
      const rest = line.slice(indent + 2)
      // `- key: value` opens a mapping whose other keys line up under `key`.
      items.push(splitKey(rest) ? this.mapping(indent + 2, rest) : this.value(rest, indent))
    }
    return items
  }

  /** A mapping whose first entry is `first` (the rest of the current line), its others at `indent`. */
  private mapping(indent: number, first: string): Record<string, unknown> {
    const map: Record<string, unknown> = {}
    const seen = new Set<string>()
    for (let content = first; ;) {
      const entry = splitKey(content) ?? out()
      if (seen.has(entry.key)) out()
      seen.add(entry.key)
      map[entry.key] = entry.value === null ? this.nested(indent) : this.value(entry.value, indent)
      const line = this.lines[this.next]
      if (line === undefined) break
      const at = indentOf(line)
      if (at < indent) break
      // Deeper would continue a scalar on the next line; a sequence at the key's own indent is outside the subset.
      if (at > indent || line.startsWith('- ', indent)) out()
      content = line.slice(indent)
    }
    return map
  }

  /** The value of `key:` with nothing after it: the deeper block below, or null. */
  private nested(indent: number): unknown {
    this.next++
    const following = this.lines[this.next]
    return following !== undefined && indentOf(following) > indent ? this.block(indentOf(following)) : null
  }

  /** A value written after `key: ` or `- `, which ends its line unless it opens a literal block. */
  private value(text: string, indent: number): unknown {
    this.next++
    if (text === '|' || text === '|-' || text === '|+') return this.literal(indent, text[1] ?? '')
    const value = scalar(text)
    const following = this.lines[this.next]
    if (following !== undefined && indentOf(following) > indent) out()
    return value
  }

  /**
   * The lines of a literal block under a key or dash at `indent`. The first line sets the
   * block's indentation and may not be empty; later lines are either empty or at least as
   * deep. `chomp` is `-` (strip the final line breaks), `+` (keep them) or `` (keep one).
   */
  private literal(indent: number, chomp: string): string {
    const first = this.lines[this.next] ?? out()
    const depth = indentOf(first)
    if (depth <= indent) out()
    const content: string[] = []
    for (let line = first; ; line = this.lines[this.next]!) {
      content.push(line.slice(depth))
      this.next++
      const following = this.lines[this.next]
      if (following === undefined) break
      if (following !== '') {
        const at = indentOf(following)
        if (at < depth) {
          if (at > indent) out()
          break
        }
      }
    }
    let end = content.length
    while (content[end - 1] === '') end--
    const body = content.slice(0, end).join('\n')
    if (chomp === '-') return body
    return body + '\n' + (chomp === '+' ? '\n'.repeat(content.length - end) : '')
  }
}

/** Leading spaces of a line; a line of nothing but spaces is outside the subset. */
function indentOf(line: string): number {
  let n = 0
  while (line.charCodeAt(n) === 32) n++
  if (n === line.length) out()
  return n
}

/** `key: value` or `key:` (value null) with a string key; null when the text is no key. */
function splitKey(text: string): { key: string; value: string | null } | null {
  let key: string
  let end: number
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = (text.startsWith('"') ? DOUBLE_QUOTED : SINGLE_QUOTED).exec(text)?.[0]
    if (quoted === undefined) return null
    end = quoted.length
    if (!text.startsWith(': ', end) && text.length !== end + 1) return null
    if (text[end] !== ':') return null
    key = unquote(quoted)
  } else {
    const colon = text.indexOf(': ')
    end = colon === -1 ? (text.endsWith(':') ? text.length - 1 : -1) : colon
    if (end === -1) return null
    key = text.slice(0, end)
    if (!isPlainString(key)) out()
  }
  if (end > MAX_KEY || key === '__proto__' || key === '<<') out()
  const value = end + 1 === text.length ? null : text.slice(end + 2)
  if (value !== null && (value === '' || value.startsWith(' '))) out()
  return { key, value }
}

function scalar(text: string): unknown {
  if (text === '[]') return []
  if (text === '{}') return {}
  if (text === 'null') return null
  if (text === 'true' || text === 'false') return text === 'true'
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = (text.startsWith('"') ? DOUBLE_QUOTED : SINGLE_QUOTED).exec(text)?.[0]
    return quoted?.length === text.length ? unquote(quoted) : out()
  }
  if (INTEGER.test(text)) return parseInt(text, 10)
  if (DECIMAL.test(text)) return parseFloat(text)
  if (text.endsWith(':') || !isPlainString(text)) out()
  return text
}

function unquote(quoted: string): string {
  return quoted.startsWith('"') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1).replaceAll("''", "'")
}

/** Text that the full parser reads, written plain on one line, as this very string. */
function isPlainString(text: string): boolean {
  return (
    PLAIN_START.test(text) &&
    !text.endsWith(' ') &&
    !text.includes(' #') &&
    !text.includes(': ') &&
    !NOT_A_STRING.test(text)
  )
}
