import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FlowGraph } from '@shared/contract'
import { EventBus } from '../../kernel/events'
import { IMPORT_TEXT_MAX, MAX_IMPORT_CONVERSATIONS } from '../../kernel/importLimits'
import {
  chatgptExport,
  chatgptMessage as message,
  layeredMessages,
  type Mapping,
} from '../../../tests/support/foreignFiles'
import { useGraph, type GraphFixture } from '../../../tests/support/graphFixture'
import { useTempHome } from '../../../tests/support/tempHome'
import { importChatgpt, type ChatgptImportReport } from './chatgptImport'

// Exports that walked the old importer into a loop or a blow-up (issue 37): a message that
// is its own child, a loop of two, 46 messages with 2^22 ways through them. Each must be
// answered at once, taking every message at most once; a file over a limit is refused whole.

const folder = useTempHome()
const open = useGraph()

function started(): GraphFixture {
  const g = open()
  g.flow('kept')
  return g
}

/** Imports `content` as the file `name`: the report, or the refusal thrown. */
function importFile(g: GraphFixture, name: string, content: string): Promise<ChatgptImportReport> {
  const path = join(folder(), name)
  writeFileSync(path, content)
  return importChatgpt({ graph: g.graph, bus: new EventBus() }, path, name)
}

function onlyFlow(g: GraphFixture, name: string): FlowGraph {
  const flow = g.graph.listFlows().find((f) => f.name === name)
  if (!flow) throw new Error(`no flow ${name}`)
  return g.graph.loadFlow(flow.id)
}

describe('ChatGPT import of a damaged message tree', () => {
  it('takes a message that lists itself as its child once', async () => {
    const g = started()
    const mapping: Mapping = {
      root: { message: null, parent: null, children: ['u'] },
      u: { message: message('user', 'hello'), parent: 'root', children: ['u', 'a'] },
      a: { message: message('assistant', 'hi there'), parent: 'u', children: [] },
    }
    const report = await importFile(g, 'self.json', chatgptExport([{ title: 'Self', mapping }]))
    expect(report).toMatchObject({ flows: 1, nodes: 1 })
    expect(onlyFlow(g, 'Self').nodes.map((n) => [n.prompt, n.response])).toEqual([['hello', 'hi there']])
  }, 20_000)

  it('ends a loop A → B → A, trusting each message’s own parent', async () => {
    const g = started()
    const mapping: Mapping = {
      root: { message: null, parent: null, children: ['u'] },
      u: { message: message('user', 'tell me'), parent: 'root', children: ['a'] },
      a: { message: message('assistant', 'first'), parent: 'u', children: ['b'] },
      b: { message: message('assistant', 'second'), parent: 'a', children: ['a'] },
    }
    const report = await importFile(g, 'loop.json', chatgptExport([{ title: 'Loop', mapping }]))
    expect(report).toMatchObject({ flows: 1, nodes: 1 })
    expect(onlyFlow(g, 'Loop').nodes.map((n) => n.response)).toEqual(['first\n\nsecond'])
  }, 20_000)

  it('walks 46 messages with 2^22 paths through them as the tree their parents make', async () => {
    const g = started()
    const report = await importFile(g, 'paths.json', chatgptExport([{ title: 'Paths', mapping: layeredMessages(22) }]))
    // Each layer's second message ends a branch; the last layer's first ends the line.
    expect(report).toMatchObject({ flows: 1, nodes: 23 })
    const graph = onlyFlow(g, 'Paths')
    expect(graph.nodes).toHaveLength(23)
    expect(new Set(graph.nodes.map((n) => n.prompt))).toEqual(new Set(['go']))
  }, 20_000)
})

describe('ChatGPT import limits', () => {
  it('refuses an export with more conversations than the limit, writing nothing', async () => {
    const g = started()
    const good = { title: 'Real', mapping: layeredMessages(1) }
    const empty = { title: 'x', mapping: {} }
    const content = chatgptExport([good, ...Array.from({ length: MAX_IMPORT_CONVERSATIONS }, () => empty)])
    const before = g.graph.listFlows().length
    await expect(importFile(g, 'many.json', content)).rejects.toMatchObject({
      code: 'bad_file',
      message: `many.json: holds ${MAX_IMPORT_CONVERSATIONS + 1} conversations, over the limit of ${MAX_IMPORT_CONVERSATIONS}`,
    })
    expect(g.graph.listFlows()).toHaveLength(before)
  }, 30_000)

  it('skips a conversation with a message over the text limit and names it; the others come in', async () => {
    const g = started()
    const long: Mapping = {
      root: { message: null, parent: null, children: ['u'] },
      u: { message: message('user', 'x'.repeat(IMPORT_TEXT_MAX + 1)), parent: 'root', children: [] },
    }
    const report = await importFile(
      g,
      'long.json',
      chatgptExport([
        { title: 'Too long', mapping: long },
        { title: 'Fine', mapping: layeredMessages(1) },
      ]),
    )
    expect(report.flows).toBe(1)
    expect(report.skipped).toContainEqual({
      conversation: 'Too long',
      reason: `a prompt of ${IMPORT_TEXT_MAX + 1} characters, over the limit of ${IMPORT_TEXT_MAX}`,
    })
    expect(g.graph.listFlows().map((f) => f.name)).not.toContain('Too long')
  }, 20_000)
})
