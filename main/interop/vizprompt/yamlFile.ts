import { LineCounter, isNode, parseDocument, stringify, visit } from 'yaml'
import { VizpromptError } from './vizpromptError'

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
 */
export function parseYaml(text: string, file: string): YamlFile {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true })
  const error = doc.errors[0]
  if (error) throw new VizpromptError(file, error.linePos?.[0].line ?? null, firstLine(error.message))
  visit(doc, {
    Alias(_, alias) {
      const line = alias.range ? lineCounter.linePos(alias.range[0]).line : null
      throw new VizpromptError(file, line, `YAML aliases (*${alias.source}) are not allowed`)
    },
  })
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

/** yaml puts the position in the message too; the error already carries the line. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '')
}

/** Block style, no line folding: long prompts stay on one line and diffs stay small. */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 })
}
