import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Node } from '@shared/contract'
import { nodeXml, parseNodeXml } from './nodeXml'
import { VizpromptError } from './vizpromptError'

function node(fields: Partial<Node> = {}, metadata: Partial<Node['metadata']> = {}): Node {
  return {
    id: randomUUID(),
    timestamp: '2025-05-09T06:48:06.533720+09:00',
    prompt: 'p',
    response: 'r',
    status: 'complete',
    error: null,
    ...fields,
    metadata: {
      model: 'gemini-2.0-flash-001',
      stats: {},
      summary: { text: '', updated: true, last_built: null },
      tags: [],
      ...metadata,
    },
  }
}

const roundTrip = (n: Node) => parseNodeXml(nodeXml(n), 'nodes/00/00.xml')

function failure(xml: string): VizpromptError {
  try {
    parseNodeXml(xml, 'nodes/00/07.xml')
  } catch (e) {
    expect(e).toBeInstanceOf(VizpromptError)
    return e as VizpromptError
  }
  throw new Error('expected the file to be refused')
}

describe('node XML', () => {
  it('writes the seed §4.1 shape', () => {
    const n = node(
      { id: '0b7e1c1a-4f0e-4c53-9a55-3f1f0b6c2d10', prompt: 'プロンプト内容', response: '応答内容' },
      {
        stats: {
          user: { count: 6, duration: 1.2, rate: 4.99 },
          assistant: { count: 14, duration: 0.08, rate: 179.49 },
        },
        summary: { text: 'ノードの要約内容', updated: false, last_built: '2025-05-09T06:48:06.533720+09:00' },
        tags: ['タグ1', 'タグ2', 'タグ3'],
      },
    )
    expect(nodeXml(n)).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<node id="0b7e1c1a-4f0e-4c53-9a55-3f1f0b6c2d10" timestamp="2025-05-09T06:48:06.533720+09:00">',
        '<prompt><![CDATA[',
        'プロンプト内容',
        ']]></prompt>',
        '<response><![CDATA[',
        '応答内容',
        ']]></response>',
        '<metadata>',
        '<model>gemini-2.0-flash-001</model>',
        '<stats role="user" count="6" duration="1.2" rate="4.99" />',
        '<stats role="assistant" count="14" duration="0.08" rate="179.49" />',
        '<summary updated="false" last_built="2025-05-09T06:48:06.533720+09:00">ノードの要約内容</summary>',
        '<tags><tag>タグ1</tag><tag>タグ2</tag><tag>タグ3</tag></tags>',
        '</metadata>',
        '</node>',
        '',
      ].join('\n'),
    )
    expect(roundTrip(n)).toEqual(n)
  })

  it('reads the seed example as written, two-decimal numbers included', () => {
    const id = randomUUID()
    const seed = `<?xml version="1.0" encoding="utf-8"?>
<node id="${id}" timestamp="2025-05-09T06:48:06.533720+09:00">
<prompt><![CDATA[
プロンプト内容をここに記載...
（改行やフォーマットを保持）
]]></prompt>
<response><![CDATA[
応答内容をここに記載...
]]></response>
<metadata>
<model>gemini-2.0-flash-001</model>
<stats role="user" count="6" duration="1.20" rate="4.99" />
<summary updated="false" last_built="2025-05-09T06:48:06.533720+09:00">ノードの要約内容</summary>
<tags><tag>タグ1</tag><tag>タグ2</tag></tags>
</metadata>
</node>
`
    const n = parseNodeXml(seed, 'nodes/00/00.xml')
    expect(n.prompt).toBe('プロンプト内容をここに記載...\n（改行やフォーマットを保持）')
    expect(n.metadata.stats).toEqual({ user: { count: 6, duration: 1.2, rate: 4.99 } })
    expect(n.metadata.tags).toEqual(['タグ1', 'タグ2'])
    expect(n.status).toBe('complete')
  })

  it.each([
    ['a CDATA terminator', 'see ]]> here, and ]]]]> twice ]]>'],
    ['Japanese', '日本語のテキスト。改行も\n保持される。'],
    ['CRLF and a lone CR', 'line one\r\nline two\rthree\r\n'],
    ['leading and trailing newlines', '\n\n  indented\n\n'],
    ['only newlines', '\n'],
    ['nothing', ''],
    ['markup that looks like a DTD', '<!DOCTYPE html>\n<!ENTITY x "y">&amp; <![CDATA[ nested'],
    ['a CR right before the terminator', 'x\r]]>\r'],
    // Not allowed by XML 1.0 at all; other XML tools may refuse such a file, Loomverse reads it back.
    ['terminal escapes and NUL', '\x1b[31mred\x1b[0m \x00'],
  ])('keeps %s in prompt and response exactly', (_, text) => {
    const n = node({ prompt: text, response: `${text}!` })
    const back = roundTrip(n)
    expect(back.prompt).toBe(text)
    expect(back.response).toBe(`${text}!`)
  })

  it('escapes summary, model and tags, keeping their line ends and spaces', () => {
    const n = node(
      {},
      {
        model: 'a&b<c>',
        summary: { text: '  5 < 6 && "x" > y\r\n]]> end  ', updated: true, last_built: null },
        tags: ['R&D', '<tag>'],
      },
    )
    expect(roundTrip(n)).toEqual(n)
  })

  it('writes why a reply failed as <error>, only when there is something to say', () => {
    const failed = node({ status: 'error', error: 'quota & <limits>\r\n  reached' })
    expect(nodeXml(failed)).toContain('\n<error>quota &amp; &lt;limits&gt;&#13;\n  reached</error>\n<metadata>')
    expect(roundTrip(failed)).toEqual(failed)
    expect(roundTrip(node({ status: 'error', error: '' }))).toMatchObject({ error: '' })
    expect(nodeXml(node())).not.toContain('<error>')
    expect(roundTrip(node()).error).toBeNull()
  })

  it('writes a streaming reply as incomplete, and keeps error and incomplete', () => {
    expect(roundTrip(node({ status: 'streaming' })).status).toBe('incomplete')
    expect(roundTrip(node({ status: 'error' })).status).toBe('error')
    expect(nodeXml(node())).not.toContain('status=')
  })

  it('reports malformed XML with its file and line', () => {
    const e = failure('<?xml version="1.0"?>\n<node id="x" timestamp="t">\n<prompt>\n</node>\n')
    expect(e.file).toBe('nodes/00/07.xml')
    expect(e.line).toBe(4)
    expect(e.message).toMatch(/^nodes\/00\/07\.xml:4: /)
  })

  it('refuses DOCTYPE and ENTITY declarations', () => {
    const e = failure('<?xml version="1.0"?>\n<!DOCTYPE node [\n<!ENTITY lol "lol">\n]>\n<node>&lol;</node>\n')
    expect(e.message).toBe('nodes/00/07.xml:2: DOCTYPE and ENTITY declarations are not allowed')
    expect(failure('<node>\n<!ENTITY x "y">\n</node>').line).toBe(2)
  })

  it('refuses unknown entities, a bad id, a bad timestamp and a bad stats role, naming the line', () => {
    const good = nodeXml(node({ id: '0b7e1c1a-4f0e-4c53-9a55-3f1f0b6c2d10' }))
    expect(failure(good.replace('<model>', '<model>&nbsp;')).message).toMatch(/:10: unknown entity &nbsp;/)
    expect(failure(good.replace('0b7e1c1a-4f0e', 'not-a-uuid')).message).toMatch(/:2: id: /)
    expect(failure(good.replace('2025-05-09T06:48:06.533720+09:00', '9 May 2025')).message).toMatch(
      /:2: timestamp "9 May 2025" is not ISO 8601/,
    )
    const badRole = good.replace('<model>', '<stats role="system" count="1" duration="1" rate="1" />\n<model>')
    expect(failure(badRole).message).toMatch(/:10: stats role must be "user" or "assistant"/)
    expect(failure(good.replace(/<prompt>[\s\S]*<\/prompt>\n/, '')).message).toMatch(/<prompt> is missing/)
  })
})
