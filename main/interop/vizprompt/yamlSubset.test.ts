import { describe, expect, it } from 'vitest'
import { parseDocument, stringify } from 'yaml'
import { VizpromptError } from './vizpromptError'
import { parseYaml, toYaml } from './yamlFile'
import { readYamlSubset } from './yamlSubset'
import { writeYamlSubset } from './yamlWriter'
import { seededRandom } from '../../../tests/support/seededRandom'

/** What the full parser makes of a text: its value, or null when it refuses it. */
function full(text: string): { value: unknown } | null {
  const doc = parseDocument(text, { uniqueKeys: true })
  return doc.errors.length > 0 ? null : { value: doc.toJS({ maxAliasCount: 0 }) }
}

/** The subset reader either passes a text on, or reads it exactly as the full parser does. */
function agrees(text: string): boolean {
  const subset = readYamlSubset(text)
  if (subset === undefined) return false
  expect(full(text), text).toEqual(subset)
  // toEqual treats +0 and -0, and key order, leniently.
  expect(JSON.stringify(subset.value)).toBe(JSON.stringify(full(text)!.value))
  return true
}

const PIECES = [
  'a',
  'b',
  'Z',
  '0',
  '1',
  '9',
  ' ',
  '  ',
  ':',
  ': ',
  '#',
  ' #',
  '-',
  '- ',
  '.',
  ',',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '\\',
  '!',
  '&',
  '*',
  '|',
  '>',
  '%',
  '@',
  '`',
  '?',
  '~',
  '\n',
  '\n\n',
  'e',
  'E',
  '+',
  'x',
  'o',
  'null',
  'true',
  'False',
  '.inf',
  '0x1F',
  '1e5',
  '日本',
  '桜',
  '\u3000',
  '\u00a0',
  '😀',
  '\t',
  '\r',
  '\x1b',
  '---',
  '...',
]

function text(next: () => number): string {
  let s = ''
  for (let n = Math.floor(next() * 6); n >= 0; n--) s += PIECES[Math.floor(next() * PIECES.length)]
  return s
}

function value(next: () => number, depth: number): unknown {
  const r = next()
  if (depth > 2 || r < 0.45) {
    const k = next()
    if (k < 0.6) return text(next)
    if (k < 0.7) return Math.round((next() - 0.5) * 1e6) / (k < 0.65 ? 1 : 1000)
    if (k < 0.8) return next() < 0.5
    if (k < 0.85) return null
    return [1e21, -0, 0.000001, 1e-7, 2 ** 53, 1.2345678901234567e19][Math.floor(next() * 6)]
  }
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1))
  if (r < 0.75)
    return new Map(Array.from({ length: Math.floor(next() * 3) }, () => [text(next), value(next, depth + 1)]))
  const map: Record<string, unknown> = {}
  for (let n = Math.floor(next() * 4); n > 0; n--) map[text(next)] = value(next, depth + 1)
  return map
}

describe('YAML writer', () => {
  it('writes exactly what yaml writes', () => {
    const next = seededRandom(13)
    for (let i = 0; i < 4000; i++) {
      const v = { [text(next)]: value(next, 0), k: value(next, 1) }
      const written = writeYamlSubset(v)
      if (written !== undefined) expect(written).toBe(stringify(v, { lineWidth: 0 }))
    }
  })

  it('writes the shape of a flow file as yaml does', () => {
    const flow = {
      id: 'f',
      nodes: Array.from({ length: 3 }, (_, i) => ({ index: i + 1, id: `n${i}`, x: -0.5, y: 1e21 })),
      connections: [{ from: 1, to: 2 }],
    }
    expect(writeYamlSubset(flow)).toBe(stringify(flow, { lineWidth: 0 }))
  })
})

describe('YAML subset reader', () => {
  it('reads what Loomverse writes as the full parser does', () => {
    const flow = {
      id: '0b7e1c1a-4f0e-4c53-9a55-3f1f0b6c2d10',
      name: 'bench 10k',
      created: '2026-01-01T00:00:00.000+00:00',
      updated: '2026-01-01T00:00:00.000000+09:00',
      description: '',
      system_prompt: 'You are:\n  kind\n\n',
      token_budget: 4000,
      nodes: [
        { index: 1, id: '12345678-1234-4234-8234-123456789012', x: -380.5, y: 0, pinned: true },
        { index: 2, id: '1e345678-1234-4234-8234-123456789012' },
      ],
      connections: [{ from: 1, to: 2 }],
    }
    expect(agrees(toYaml(flow))).toBe(true)
    const index = {
      updated: '2026-01-01T00:00:00Z',
      nodes: { a: { timestamp: 't', keywords: 'topic1,桜', summary: 'line one\nline two' }, b: { summary: '' } },
    }
    expect(agrees(toYaml(index))).toBe(true)
    expect(
      agrees(
        toYaml({
          tags: new Map([
            ['2024', ['x']],
            ['#tag', ['y']],
            ['a: b', []],
          ]),
        }),
      ),
    ).toBe(true)
  })

  it('agrees with the full parser on random values written by toYaml', () => {
    const next = seededRandom(7)
    let read = 0
    for (let i = 0; i < 3000; i++) {
      const v = { k: value(next, 0), [text(next)]: value(next, 0) }
      if (agrees(toYaml(v))) read++
    }
    // The reader has to cover most of what is written, or it would not be worth having.
    expect(read).toBeGreaterThan(1000)
  })

  it('never accepts a damaged text the full parser reads differently or refuses', () => {
    const next = seededRandom(11)
    for (let i = 0; i < 3000; i++) {
      const lines = toYaml({ a: value(next, 0), b: [value(next, 1), { c: value(next, 1) }], d: 'x' }).split('\n')
      const at = Math.floor(next() * lines.length)
      const line = lines[at]!
      const cut = Math.floor(next() * (line.length + 1))
      const choice = next()
      lines[at] =
        choice < 0.4
          ? line.slice(0, cut) + text(next) + line.slice(cut)
          : choice < 0.7
            ? line.slice(0, cut) + line.slice(cut + 1 + Math.floor(next() * 3))
            : choice < 0.85
              ? ' '.repeat(Math.floor(next() * 3)) + line
              : line.trimStart()
      agrees(lines.join('\n'))
    }
  })

  it('passes on what it does not cover', () => {
    for (const text of [
      'a: 1\na: 2\n', // duplicate key
      'a: &x 1\nb: *x\n', // anchors and aliases
      '# comment\na: 1\n',
      'a: 1 # comment\n',
      'a: >\n  folded\n',
      'a: [1, 2]\n',
      'a:\n\tb: 1\n',
      'a: 1',
      'a: |\n  x\nb: |2\n   y\n',
      'a: "x\\ty"\n', // \t is in both, but \x escapes are YAML-only; kept simple
      'a: 0x10\n',
      'a: 007\n',
      'a:\n- 1\n',
      'a: b: c\n',
      '---\na: 1\n',
    ]) {
      const subset = readYamlSubset(text)
      if (subset) expect(full(text), text).toEqual(subset)
      else expect(subset).toBeUndefined()
    }
    expect(readYamlSubset('a: 1\na: 2\n')).toBeUndefined()
    expect(readYamlSubset('a: &x 1\nb: *x\n')).toBeUndefined()
  })
})

describe('parseYaml', () => {
  it('reports duplicate keys and other errors where yaml would', () => {
    for (const text of [
      'a: 1\nb:\n  c: 1\n  c: 2\n',
      'a: 1\na: 2\nb: [oops\n',
      'a: [oops\nb: 1\nb: 2\n',
      'x: {p: 1, p: 2}\n',
      '# comment\nlist:\n  - k: 1\n    k: 2\n',
      "'q': 1\nq: 2\n",
    ]) {
      const expected = parseDocument(text, { uniqueKeys: true, prettyErrors: true }).errors[0]!
      let error: unknown
      try {
        parseYaml(text, 'f.yaml')
      } catch (e) {
        error = e
      }
      expect(error, text).toBeInstanceOf(VizpromptError)
      expect((error as VizpromptError).line, text).toBe(expected.linePos?.[0].line)
      expect((error as VizpromptError).reason, text).toBe(
        expected.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''),
      )
    }
  })
})
