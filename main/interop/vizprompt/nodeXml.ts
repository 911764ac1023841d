import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { Node } from '@shared/contract'
import { ImportedNode, MAX_NESTING } from './importLimits'
import { isIsoTimestamp } from './timestamps'
import { VizpromptError, lineAtOffset } from './vizpromptError'
import { cdata, decodeEntities, escapeAttribute, escapeText, markupOnly, unframe } from './xmlText'
import { readXmlSubset, type Item } from './xmlSubset'

// One node as one XML file, in the shape of seed §4.1. Connections are not here: flows own them.

const ROLES = ['user', 'assistant'] as const

export function nodeXml(node: Node): string {
  const { model, stats, summary, tags } = node.metadata
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<node${attributes({ id: node.id, timestamp: node.timestamp, status: exportedStatus(node.status) })}>`,
    `<prompt>${cdata(node.prompt)}</prompt>`,
    `<response>${cdata(node.response)}</response>`,
    // Not in the seed: why a reply failed or stopped early. Left out when there is nothing to say.
    ...(node.error === null ? [] : [`<error>${escapeText(node.error)}</error>`]),
    '<metadata>',
    `<model>${escapeText(model)}</model>`,
    ...ROLES.flatMap((role) => {
      const s = stats[role]
      return s ? [`<stats${attributes({ role, count: s.count, duration: s.duration, rate: s.rate })} />`] : []
    }),
    `<summary${attributes({ updated: summary.updated, last_built: summary.last_built })}>${escapeText(summary.text)}</summary>`,
    `<tags>${tags.map((t) => `<tag>${escapeText(t)}</tag>`).join('')}</tags>`,
    '</metadata>',
    '</node>',
    '',
  ].join('\n')
}

/**
 * `complete` is the seed's implicit state and is left out. A reply still streaming when the
 * export ran will never finish in the copy, so it is written as incomplete.
 */
function exportedStatus(status: Node['status']): string | null {
  if (status === 'complete') return null
  return status === 'streaming' ? 'incomplete' : status
}

function attributes(values: Record<string, string | number | boolean | null>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`)
    .join('')
}

// ---- reading

// preserveOrder keeps CDATA sections and the text between them in order, which `cdata` relies on.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  cdataPropName: '__cdata',
  processEntities: false,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
})

/** What the general parser makes of a file, or its first well-formedness error; for tests of xmlSubset.ts. */
export function readXmlFully(xml: string): Item[] | string {
  const valid = XMLValidator.validate(xml)
  return valid === true ? (parser.parse(xml) as Item[]) : valid.err.msg
}

/** Parses and validates one node file; `file` names it in errors. */
export function parseNodeXml(xml: string, file: string): Node {
  return new NodeFileReader(xml, file).read()
}

class NodeFileReader {
  private blanked: string | undefined

  constructor(
    private readonly xml: string,
    private readonly file: string,
  ) {}

  /** The file with CDATA and comments blanked out (markupOnly), for finding elements in errors. */
  private get markup(): string {
    return (this.blanked ??= markupOnly(this.xml))
  }

  read(): Node {
    // A file as Loomverse writes it is read without the general parser. Any problem at all
    // is left to the full path below, so errors read the same whichever way a file came.
    const items = readXmlSubset(this.xml)
    if (items) {
      try {
        return this.fromItems(items)
      } catch {
        // Reported by the full path.
      }
    }
    // Refused outright, before any parser sees it: entity definitions are how XML bombs and
    // file inclusion work. Conversation text in CDATA may mention them freely.
    const dtd = this.markup.search(/<!DOCTYPE|<!ENTITY/i)
    if (dtd !== -1) {
      throw new VizpromptError(
        this.file,
        lineAtOffset(this.xml, dtd),
        'DOCTYPE and ENTITY declarations are not allowed',
      )
    }
    const deep = tooDeep(this.markup)
    if (deep !== -1) {
      throw new VizpromptError(
        this.file,
        lineAtOffset(this.xml, deep),
        `elements are nested more than ${MAX_NESTING} deep; a node file has four levels`,
      )
    }
    const valid = XMLValidator.validate(this.xml)
    if (valid !== true) throw new VizpromptError(this.file, valid.err.line, valid.err.msg)
    return this.fromItems(parser.parse(this.xml) as Item[])
  }

  private fromItems(items: Item[]): Node {
    const roots = elements(items)
    const root = roots[0]
    if (roots.length !== 1 || !root || nameOf(root) !== 'node') this.fail('node', 'the root element must be <node>')
    return this.check(this.toNode(root))
  }

  private toNode(root: Item): unknown {
    const attrs = this.attributes(root, 'node')
    const children = elements(childrenOf(root))
    const metadata = elements(childrenOf(this.optional(children, 'metadata') ?? {}))
    const summary = this.optional(metadata, 'summary')
    const summaryAttrs = summary ? this.attributes(summary, 'summary') : {}
    const model = this.optional(metadata, 'model')
    const tags = this.optional(metadata, 'tags')
    const response = this.optional(children, 'response')
    const error = this.optional(children, 'error')
    return {
      id: attrs.id,
      timestamp: attrs.timestamp,
      // Nothing will finish a stream in an imported copy.
      status: attrs.status === 'streaming' ? 'incomplete' : (attrs.status ?? 'complete'),
      prompt: unframe(this.text(this.required(children, 'prompt'))),
      response: response ? unframe(this.text(response)) : '',
      error: error ? this.text(error) : null,
      metadata: {
        model: model ? this.text(model) : '',
        stats: this.stats(metadata),
        summary: {
          text: summary ? this.text(summary) : '',
          updated: this.flag(summaryAttrs.updated ?? 'true'),
          last_built: summaryAttrs.last_built ?? null,
        },
        tags: tags
          ? elements(childrenOf(tags))
              .filter((t) => nameOf(t) === 'tag')
              .map((t) => this.text(t))
          : [],
      },
    }
  }

  private stats(metadata: Item[]): Node['metadata']['stats'] {
    const out: Node['metadata']['stats'] = {}
    for (const item of metadata.filter((m) => nameOf(m) === 'stats')) {
      const a = this.attributes(item, 'stats')
      const role = ROLES.find((r) => r === a.role)
      if (!role) this.fail('stats', `stats role must be "user" or "assistant", got "${a.role ?? ''}"`)
      if (out[role]) this.fail('stats', `stats for role "${role}" appear twice`)
      out[role] = { count: number(a.count), duration: number(a.duration), rate: number(a.rate) }
    }
    return out
  }

  /** Holds the result to the contract's Node and the methods' limits, naming the element of the first problem. */
  private check(value: unknown): Node {
    const parsed = ImportedNode.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const path = issue.path.map(String)
      this.fail(elementOf(path), `${path.join('.')}: ${issue.message}`)
    }
    const node = parsed.data
    if (!isIsoTimestamp(node.timestamp))
      this.fail('node', `timestamp "${node.timestamp}" is not ISO 8601 with an offset`)
    const built = node.metadata.summary.last_built
    if (built !== null && !isIsoTimestamp(built))
      this.fail('summary', `last_built "${built}" is not ISO 8601 with an offset`)
    return node
  }

  private required(items: Item[], name: string): Item {
    return this.optional(items, name) ?? this.fail('node', `<${name}> is missing`)
  }

  private optional(items: Item[], name: string): Item | undefined {
    const found = items.filter((i) => nameOf(i) === name)
    if (found.length > 1) this.fail(name, `<${name}> appears ${found.length} times`)
    return found[0]
  }

  /** The element's text: CDATA as written, character data with its references decoded. */
  private text(item: Item): string {
    const name = nameOf(item)
    return childrenOf(item)
      .map((child) => {
        if ('__cdata' in child) return (child.__cdata as Item[]).map((c) => String(c['#text'] ?? '')).join('')
        if ('#text' in child) return this.decode(String(child['#text']), name)
        return this.fail(name, `<${nameOf(child)}> is not allowed inside <${name}>`)
      })
      .join('')
  }

  private attributes(item: Item, name: string): Record<string, string | undefined> {
    const raw = (item[':@'] ?? {}) as Record<string, string>
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, this.decode(String(v), name)]))
  }

  private flag(value: string): boolean {
    if (value !== 'true' && value !== 'false') this.fail('summary', `updated must be "true" or "false", got "${value}"`)
    return value === 'true'
  }

  private decode(text: string, element: string): string {
    try {
      return decodeEntities(text)
    } catch (e) {
      return this.fail(element, (e as Error).message)
    }
  }

  private fail(element: string, reason: string): never {
    const at = this.markup.search(new RegExp(`<${element}[\\s/>]`))
    throw new VizpromptError(this.file, at === -1 ? null : lineAtOffset(this.xml, at), reason)
  }
}

/**
 * The offset of the first start tag nested deeper than MAX_NESTING, or -1. Counted over
 * the markup alone (CDATA and comments blanked), before any parser that recurses sees it.
 */
function tooDeep(markup: string): number {
  let depth = 0
  for (const tag of markup.matchAll(/<(\/?)[A-Za-z_:][^>]*?(\/?)>/g)) {
    if (tag[1]) depth--
    else if (!tag[2] && ++depth > MAX_NESTING) return tag.index
  }
  return -1
}

/** The element a contract path points into, for the line number of an error. */
function elementOf(path: string[]): string {
  const names = ['prompt', 'response', 'error', 'model', 'stats', 'summary', 'tags']
  return [...path].reverse().find((p) => names.includes(p)) ?? 'node'
}

function nameOf(item: Item): string {
  return Object.keys(item).find((k) => k !== ':@') ?? ''
}

function childrenOf(item: Item): Item[] {
  const value = item[nameOf(item)]
  return Array.isArray(value) ? (value as Item[]) : []
}

/** Child elements only: text between them (the file's own line breaks) is not content. */
function elements(items: Item[]): Item[] {
  return items.filter((i) => {
    const name = nameOf(i)
    return name !== '#text' && name !== '__cdata' && !name.startsWith('?')
  })
}

/** An attribute as a number; an empty or missing one is not zero. */
function number(text: string | undefined): number {
  return text === undefined || text.trim() === '' ? Number.NaN : Number(text)
}
