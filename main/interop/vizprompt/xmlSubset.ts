// A fast reader for node files as Loomverse writes them: an optional `<?xml …?>` line, then
// one element tree whose elements hold either other elements (separated by line breaks) or
// text and CDATA sections. It makes the same tree fast-xml-parser makes (its
// `preserveOrder` shape, with the options nodeXml.ts uses) without that parser's validation
// pass and general machinery — most of the time of reading 10,000 node files.
//
// It is strict: anything else — comments, processing instructions, DOCTYPE, single quotes,
// a repeated attribute, whitespace-only text, `>` or a raw line break in an attribute, a CR
// anywhere — makes it answer `undefined`, and the caller uses the full parser with its
// validator. So it never accepts a file the full parser refuses, and never reads one
// differently; everything it does not know stays the full parser's to judge and report.

import { MAX_NESTING } from './importLimits'

export type Item = Record<string, unknown>

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>'
/** Every `&` starts a reference of the form the decoder knows (which then checks its name and range). */
const REFERENCE = String.raw`&(?:[a-zA-Z]+|#[0-9]+|#x[0-9a-fA-F]+);`
/** `<name`, then ` attr="value"`s, then `>` or `/>` (one space before it allowed). */
const OPEN = new RegExp(String.raw`<([a-z][a-z_]*)((?: [a-z][a-z_]*="(?:[^"<>&\n\t]|${REFERENCE})*")*) ?(/?)>`, 'y')
const ATTRIBUTE = / ([a-z][a-z_]*)="([^"]*)"/g
/** Text: no markup characters. */
const TEXT = new RegExp(String.raw`(?:[^<>&]|${REFERENCE})+`, 'y')
const CDATA_OPEN = '<![CDATA['
const CDATA_CLOSE = ']]>'

class Outside extends Error {}

function out(): never {
  throw new Outside('outside the node file subset')
}

/** The parsed items (as fast-xml-parser gives them), or undefined when the file is outside the subset. */
export function readXmlSubset(xml: string): Item[] | undefined {
  if (xml.includes('\r')) return undefined
  try {
    return new SubsetReader(xml).document()
  } catch (e) {
    if (e instanceof Outside) return undefined
    throw e
  }
}

class SubsetReader {
  private at = 0

  constructor(private readonly xml: string) {}

  document(): Item[] {
    if (this.xml.startsWith(DECLARATION)) this.at = DECLARATION.length
    this.lineBreaks()
    const root = this.element(1)
    this.lineBreaks()
    if (this.at !== this.xml.length) out()
    return [root]
  }

  private lineBreaks(): void {
    while (this.xml.charCodeAt(this.at) === 10) this.at++
  }

  /** `depth`: 1 for the root. Deeper than any node file is left to the full path, which refuses it with its line. */
  private element(depth: number): Item {
    if (depth > MAX_NESTING) out()
    OPEN.lastIndex = this.at
    const open = OPEN.exec(this.xml) ?? out()
    this.at = OPEN.lastIndex
    const [, name, attributeText, selfClosing] = open as unknown as [string, string, string, string]
    const item: Item = { [name]: selfClosing ? [] : this.content(name, depth) }
    if (attributeText) item[':@'] = attributes(attributeText)
    return item
  }

  /**
   * Children up to and including `</name>`: either elements with line breaks around them,
   * or text and CDATA sections.
   */
  private content(name: string, depth: number): Item[] {
    const close = `</${name}>`
    const children: Item[] = []
    let markup = false
    let text = false
    for (;;) {
      if (this.xml.startsWith(close, this.at)) {
        this.at += close.length
        return children
      }
      if (this.xml.startsWith(CDATA_OPEN, this.at)) {
        const start = this.at + CDATA_OPEN.length
        const end = this.xml.indexOf(CDATA_CLOSE, start)
        if (end === -1) out()
        children.push({ __cdata: [{ '#text': this.xml.slice(start, end) }] })
        this.at = end + CDATA_CLOSE.length
        text = true
      } else if (this.xml.charCodeAt(this.at) === 60 /* < */) {
        children.push(this.element(depth + 1))
        markup = true
      } else {
        TEXT.lastIndex = this.at
        const chars = TEXT.exec(this.xml)?.[0] ?? out()
        this.at = TEXT.lastIndex
        children.push({ '#text': chars })
        if (/^\n+$/.test(chars) && this.xml.charCodeAt(this.at) === 60 && !this.xml.startsWith(CDATA_OPEN, this.at)) {
          // Line breaks beside an element: the file's layout, which the full parser keeps as text too.
          markup = true
        } else {
          // Whitespace-only text is left to the full parser.
          if (chars.trim() === '') out()
          text = true
        }
      }
      if (markup && text) out()
    }
  }
}

function attributes(text: string): Record<string, string> {
  const values: Record<string, string> = {}
  for (const [, name, value] of text.matchAll(ATTRIBUTE) as IterableIterator<[string, string, string]>) {
    if (Object.hasOwn(values, name)) out()
    values[name] = value
  }
  return values
}
