import {
  LineCounter,
  Parser,
  isNode,
  isScalar,
  parseDocument,
  stringify,
  visit,
  type Alias,
  type CST,
  type Document,
} from 'yaml'
import { MAX_NESTING } from './importLimits'
import { VizpromptError } from './vizpromptError'
import { readYamlSubset } from './yamlSubset'
import { writeYamlSubset } from './yamlWriter'

// YAML in and out. Reading keeps the document so a problem found later (a wrong type, an
// unknown node index) can still be reported with the line it is on.

export type YamlPath = ReadonlyArray<string | number>

export interface YamlFile {
  value: unknown
  /** The line of the value at `path`, or of its nearest enclosing value that exists. */
  lineOf(path: YamlPath): number | null
}

/**
 * Aliases are refused outright: a few nested ones expand into gigabytes ("billion laughs"),
 * and nothing Loomverse writes uses them.
 *
 * What Loomverse writes itself is read by the strict subset reader (yamlSubset.ts), which
 * gives the same value as the full parser in a fraction of the time; the full parser runs
 * for anything else, and — only when a line is asked for — to find a position.
 */
export function parseYaml(text: string, file: string): YamlFile {
  const subset = readYamlSubset(text)
  if (!subset) return parseFully(text, file)
  let full: YamlFile | undefined
  return {
    value: subset.value,
    lineOf: (path) => (full ??= parseFully(text, file)).lineOf(path),
  }
}

function parseFully(text: string, file: string): YamlFile {
  // yaml's parser is a loop, its composer recurses: depth is checked between the two.
  const lines = new LineCounter()
  const deep = tooDeep(new Parser(lines.addNewLine).parse(text))
  if (deep !== -1) {
    const reason = `collections are nested more than ${MAX_NESTING} deep; a flow file has four levels`
    throw new VizpromptError(file, lines.linePos(deep).line, reason)
  }
  const lineCounter = new LineCounter()
  // Duplicate keys are found below: yaml's own check compares every key with every other,
  // which takes seconds on a 10,000-entry mapping.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false })
  const { duplicate, alias } = scan(doc)
  const error = doc.errors[0]
  if (duplicate !== null && (!error || duplicate < error.pos[0])) {
    throw new VizpromptError(file, lineCounter.linePos(duplicate).line, 'Map keys must be unique')
  }
  if (error) throw new VizpromptError(file, error.linePos?.[0].line ?? null, firstLine(error.message))
  if (alias) {
    const line = alias.range ? lineCounter.linePos(alias.range[0]).line : null
    throw new VizpromptError(file, line, `YAML aliases (*${alias.source}) are not allowed`)
  }
  return {
    value: doc.toJS({ maxAliasCount: 0 }),
    lineOf(path) {
      for (let p = [...path]; ; p = p.slice(0, -1)) {
        const node = p.length === 0 ? doc.contents : doc.getIn(p, true)
        if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line
        if (p.length === 0) return null
      }
    },
  }
}

/** The offset of the first collection nested deeper than MAX_NESTING, or -1; walked without recursion. */
function tooDeep(tokens: Iterable<CST.Token>): number {
  const stack: Array<[CST.Token | undefined, number]> = []
  for (const token of tokens) stack.push([token, 0])
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [token, depth] = next
    if (!token) continue
    if (token.type === 'document') stack.push([token.value, depth])
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > MAX_NESTING) return token.offset
      for (const item of token.items) {
        if ('key' in item) stack.push([item.key ?? undefined, depth + 1])
        stack.push([item.value, depth + 1])
      }
    }
  }
  return -1
}

/**
 * The offset of the first key that repeats an earlier one of its mapping (yaml's rule with
 * `uniqueKeys: true`: scalar keys with the same value), and the first alias.
 */
function scan(doc: Document): { duplicate: number | null; alias: Alias | null } {
  let duplicate: number | null = null
  let alias: Alias | null = null
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>()
      for (const { key } of map.items) {
        if (!isScalar(key) || Number.isNaN(key.value)) continue
        if (seen.has(key.value)) {
          const at = key.range?.[0]
          if (at !== undefined && (duplicate === null || at < duplicate)) duplicate = at
        }
        seen.add(key.value)
      }
    },
    Alias(_, node) {
      alias ??= node
    },
  })
  return { duplicate, alias }
}

/** yaml puts the position in the message too; the error already carries the line. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '')
}

/**
 * Block style, no line folding: long prompts stay on one line and diffs stay small. Plain
 * data is written by yamlWriter.ts, byte for byte as yaml would write it, only faster.
 */
export function toYaml(value: unknown): string {
  return writeYamlSubset(value) ?? stringify(value, { lineWidth: 0 })
}
