import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { NodeTag, type Node } from '@shared/contract'
import { nodeXml, parseNodeXml, readXmlFully } from './nodeXml'
import { readXmlSubset } from './xmlSubset'
import { seededRandom } from '../../../tests/support/seededRandom'

/** The subset reader either passes a file on, or makes exactly the full parser's tree of it. */
function agrees(xml: string): boolean {
  const subset = readXmlSubset(xml)
  if (subset === undefined) return false
  expect(readXmlFully(xml), xml).toEqual(subset)
  return true
}

const PIECES = [
  'a',
  'Z',
  '0',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\r',
  '\r\n',
  '\t',
  '<',
  '>',
  '&',
  '&amp;',
  '&#13;',
  '&lt;',
  '&nbsp;',
  ']]>',
  ']]',
  '<![CDATA[',
  '<!--',
  '-->',
  '<!DOCTYPE x>',
  '<!ENTITY a "b">',
  '"',
  "'",
  '=',
  '/',
  '<b>',
  '</b>',
  '日本',
  '😀',
  '\x00',
  '\x1b',
  '\u2028',
]

function text(next: () => number): string {
  let s = ''
  for (let n = Math.floor(next() * 6); n >= 0; n--) s += PIECES[Math.floor(next() * PIECES.length)]
  return s
}

function node(next: () => number): Node {
  const stats = (): Node['metadata']['stats'][keyof Node['metadata']['stats']] => ({
    count: Math.floor(next() * 100),
    duration: Math.round(next() * 1000) / 100,
    rate: Math.round(next() * 10000) / 100,
  })
  return {
    id: randomUUID(),
    timestamp: '2025-05-09T06:48:06.533720+09:00',
    prompt: text(next),
    response: text(next),
    status: (['complete', 'streaming', 'incomplete', 'error'] as const)[Math.floor(next() * 4)]!,
    error: next() < 0.5 ? null : text(next),
    metadata: {
      model: next() < 0.3 ? '' : text(next),
      stats: next() < 0.5 ? {} : { user: stats(), ...(next() < 0.5 && { assistant: stats() }) },
      summary: {
        text: next() < 0.3 ? '' : text(next),
        updated: next() < 0.5,
        last_built: next() < 0.5 ? null : '2025-05-09T06:48:06.533720+09:00',
      },
      // Tags as the methods take them (an import holds files to the same rules).
      tags: Array.from({ length: Math.floor(next() * 3) }, () => text(next)).filter(
        (t) => NodeTag.safeParse(t).data === t,
      ),
    },
  }
}

describe('node file subset reader', () => {
  it('reads every node Loomverse writes, as the full parser does', () => {
    const next = seededRandom(3)
    let read = 0
    for (let i = 0; i < 2000; i++) {
      const n = node(next)
      const xml = nodeXml(n)
      if (agrees(xml)) read++
      // Whichever path read it, the node comes back whole.
      expect(parseNodeXml(xml, 'nodes/00/00.xml')).toEqual({
        ...n,
        status: n.status === 'streaming' ? 'incomplete' : n.status,
      })
    }
    // Only whitespace-only text (say a summary of two spaces) is left to the full parser.
    expect(read).toBeGreaterThan(1800)
  })

  it('never accepts a damaged file that the full parser refuses or reads differently', () => {
    const next = seededRandom(5)
    let read = 0
    for (let i = 0; i < 4000; i++) {
      const xml = nodeXml(node(next))
      const at = Math.floor(next() * xml.length)
      const choice = next()
      const damaged =
        choice < 0.5
          ? xml.slice(0, at) + text(next) + xml.slice(at)
          : choice < 0.8
            ? xml.slice(0, at) + xml.slice(at + 1 + Math.floor(next() * 4))
            : xml.slice(0, at) + xml.slice(at, at + 8).toUpperCase() + xml.slice(at + 8)
      if (agrees(damaged)) read++
    }
    expect(read).toBeGreaterThan(500)
  })

  it('passes on comments, DOCTYPE, odd quoting and repeated attributes', () => {
    for (const xml of [
      '<!DOCTYPE node [<!ENTITY a "b">]>\n<node id="x"/>',
      '<node id="x"><!-- c --></node>',
      "<node id='x'/>",
      '<node id="x" id="y"/>',
      '<node>\r\n</node>',
      '<node><prompt>  </prompt></node>',
      '<node><?pi x?></node>',
      '<node></node>\n<node></node>',
      '<node><prompt>a</prompt>text</node>',
    ]) {
      expect(readXmlSubset(xml), xml).toBeUndefined()
    }
  })
})
