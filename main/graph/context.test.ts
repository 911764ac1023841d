import { describe, expect, it } from 'vitest'
import type { ContextPreview } from '@shared/contract'
import { startCore } from '../core'
import { useTempHome } from '../../tests/support/tempHome'
import type { Language } from '../kernel/language'
import { buildContext } from './context'
import { errorCode, useGraph, type GraphFixture } from '../../tests/support/graphFixture'
import { tokenCount } from '../kernel/tokens'

const setup = useGraph()
const home = useTempHome()

function context(
  g: GraphFixture,
  flowId: string,
  parentIds: string[],
  options: { prompt?: string; budget?: number; language?: Language } = {},
): ContextPreview {
  return buildContext({
    flow: g.graph.contextFlow(flowId, parentIds),
    node: (id) => g.graph.getNode(id),
    parentIds,
    prompt: options.prompt ?? 'What next?',
    budget: options.budget ?? 100_000,
    language: options.language ?? 'en',
  })
}

const ids = (c: ContextPreview, kind: string) => c.parts.filter((p) => p.kind === kind).map((p) => p.node_id)
const messageTokens = (c: ContextPreview) => c.messages.reduce((n, m) => n + tokenCount(m.content), 0)

describe('build_context', () => {
  it('gives older ancestors as summaries, oldest first, and the direct parent in full', () => {
    const g = setup()
    const f = g.flow()
    const root = g.add(f, 'Plan a trip')
    const middle = g.add(f, 'Which city?', [root], { response: 'Kyoto or Osaka.' })
    const parent = g.add(f, 'Tell me about Kyoto', [middle], { response: 'Kyoto has temples.' })
    g.summarise(root, 'The user plans a trip.')

    const c = context(g, f, [parent], { prompt: 'And food?' })
    expect(c.parts.map((p) => p.kind)).toEqual([
      'system',
      'instructions',
      'ancestor_summary',
      'ancestor_summary',
      'parent',
      'details_note',
      'prompt',
    ])
    expect(ids(c, 'ancestor_summary')).toEqual([root, middle])
    expect(c.parts.filter((p) => p.kind === 'ancestor_summary').map((p) => p.text)).toEqual([
      `[${root}] The user plans a trip.`,
      `[${middle}] Which city? → Kyoto or Osaka.`,
    ])
    expect(c.parts.find((p) => p.kind === 'parent')?.text).toBe('Tell me about Kyoto\n\nKyoto has temples.')
    expect(c.dropped_node_ids).toEqual([])
    expect(c.total_tokens).toBe(c.parts.reduce((n, p) => n + p.tokens, 0))
  })

  it('sends the system text, then the parent as a user/assistant pair, then the new prompt', () => {
    const g = setup()
    const f = g.flow()
    g.graph.updateFlow({ id: f, system_prompt: 'You are a travel agent.' })
    const root = g.add(f, 'Plan a trip')
    const parent = g.add(f, 'Tell me about Kyoto', [root], { response: 'Kyoto has temples.' })

    const c = context(g, f, [parent], { prompt: 'And food?' })
    expect(c.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(c.messages.slice(1).map((m) => m.content)).toEqual([
      'Tell me about Kyoto',
      'Kyoto has temples.',
      'And food?',
    ])
    const system = c.messages[0]!.content
    expect(system).toMatch(/^You are a travel agent\.\n\nUse the information below when you answer\./)
    expect(system).toContain(`The conversation so far (summaries, oldest first):\n[${root}] Plan a trip`)
    expect(system).toMatch(/If you need the details of a node, say "\[node id\] details"\.$/)
  })

  it('starts a new conversation with just the system text and the prompt', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, 'unrelated')
    const c = context(g, f, [], { prompt: 'Hello' })
    expect(c.parts.map((p) => p.kind)).toEqual(['system', 'instructions', 'details_note', 'prompt'])
    expect(c.messages).toEqual([
      { role: 'system', content: expect.stringMatching(/^You are a helpful assistant\./) },
      { role: 'user', content: 'Hello' },
    ])
  })

  it('gives a merge both branches’ ancestors in the order they happened', () => {
    const g = setup()
    const f = g.flow()
    const root = g.add(f, 'root')
    const b1 = g.add(f, 'b1', [root])
    const a1 = g.add(f, 'a1', [root])
    const a2 = g.add(f, 'a2', [a1])
    const b2 = g.add(f, 'b2', [b1])
    const merge = g.add(f, 'merge', [a2, b2])

    const below = context(g, f, [merge])
    expect(ids(below, 'ancestor_summary')).toEqual([root, b1, a1, a2, b2])
    expect(ids(below, 'parent')).toEqual([merge])

    // Answering both ends at once: both are parents, in full, each as its own pair.
    const both = context(g, f, [b2, a2])
    expect(ids(both, 'ancestor_summary')).toEqual([root, b1, a1])
    expect(ids(both, 'parent')).toEqual([a2, b2])
    expect(both.messages.map((m) => m.content).slice(1)).toEqual(['a2', 'b2', 'What next?'])
  })

  it('adds pinned nodes off the path as references with their tags', () => {
    const g = setup()
    const f = g.flow()
    const [root, parent] = g.chain(f, 'root', 'parent') as [string, string]
    const glossary = g.add(f, 'Glossary of terms', [], { tags: ['glossary', 'terms'] })
    const onPath = root
    g.graph.setPinned({ flow_id: f, node_id: glossary, pinned: true })
    g.graph.setPinned({ flow_id: f, node_id: onPath, pinned: true })
    g.graph.setPinned({ flow_id: f, node_id: parent, pinned: true })

    const c = context(g, f, [parent])
    expect(c.parts.filter((p) => p.kind === 'reference').map((p) => p.text)).toEqual([
      `[${glossary}]: Glossary of terms [#glossary #terms]`,
    ])
    expect(ids(c, 'ancestor_summary')).toEqual([root])
    expect(c.messages[0]!.content).toContain(`References:\n[${glossary}]: Glossary of terms [#glossary #terms]`)
  })

  it('reads the part of the flow above the parents and the pins, not the branches beside them', () => {
    const g = setup()
    const f = g.flow()
    const [root, a, b] = g.chain(f, 'root', 'a', 'b') as [string, string, string]
    const side = g.add(f, 'side', [root])
    const sideChild = g.add(f, 'side child', [side])
    const other = g.add(f, 'another root')
    const merge = g.add(f, 'merge', [b, other])
    g.graph.setPinned({ flow_id: f, node_id: sideChild, pinned: true })
    g.graph.setPinned({ flow_id: f, node_id: root, pinned: true })

    const read = g.graph.contextFlow(f, [merge])
    const edge = (from: string, to: string) => `${from}→${to}`
    expect(
      read
        .connections()
        .map((c) => edge(c.from, c.to))
        .sort(),
    ).toEqual([edge(root, a), edge(a, b), edge(b, merge), edge(other, merge)].sort())
    expect(read.pinned).toEqual([root, sideChild])
    expect(new Set(g.graph.pathTo(f, b))).toEqual(new Set([root, a, b]))
    // The side branch stays out of the history; its pinned node comes in as a reference.
    const c = context(g, f, [merge])
    expect(ids(c, 'ancestor_summary')).toEqual(expect.arrayContaining([root, a, b, other]))
    expect(ids(c, 'ancestor_summary')).not.toContain(side)
    expect(ids(c, 'reference')).toEqual([sideChild])
  })

  it('drops the oldest ancestors first when the budget is small, and stays within it', () => {
    const g = setup()
    const f = g.flow()
    const chain = g.chain(f, ...Array.from({ length: 8 }, (_, i) => `step ${i + 1} of the plan`))
    const parent = chain.at(-1)!
    const full = context(g, f, [parent])
    const ancestors = full.parts.filter((p) => p.kind === 'ancestor_summary')
    const room = ancestors.slice(-3).reduce((n, p) => n + p.tokens, 0)

    const c = context(g, f, [parent], {
      budget: full.total_tokens - ancestors.reduce((n, p) => n + p.tokens, 0) + room,
    })
    expect(ids(c, 'ancestor_summary')).toEqual(chain.slice(4, 7))
    expect(c.dropped_node_ids).toEqual(chain.slice(0, 4))
    expect(c.total_tokens).toBeLessThanOrEqual(c.budget)
  })

  it('keeps the kept ancestors contiguous: a short old one does not jump over a long newer one', () => {
    const g = setup()
    const f = g.flow()
    const [oldest, long, newest, parent] = g.chain(f, 'hi', 'long '.repeat(60), 'ok', 'parent') as string[]
    const full = context(g, f, [parent!])
    const longTokens = full.parts.find((p) => p.node_id === long)!.tokens

    const c = context(g, f, [parent!], { budget: full.total_tokens - longTokens })
    expect(ids(c, 'ancestor_summary')).toEqual([newest])
    expect(c.dropped_node_ids).toEqual([oldest, long])
  })

  it('keeps the end of a parent longer than the whole budget, in every message too', () => {
    const g = setup()
    const f = g.flow()
    const longPrompt = g.add(f, `${'background '.repeat(3000)}QUESTION?`, [], { response: 'Short answer. THE END' })
    const longReply = g.add(f, 'Short question', [], { response: `${'story '.repeat(3000)}THE END` })

    for (const parent of [longPrompt, longReply]) {
      const c = context(g, f, [parent], { budget: 500 })
      const part = c.parts.find((p) => p.kind === 'parent')!
      expect(part.text).toMatch(/^\(beginning omitted\).+THE END$/s)
      expect(c.total_tokens).toBeLessThanOrEqual(500)
      expect(c.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
      expect(c.messages[1]!.content).toMatch(/^\(beginning omitted\)/)
      expect(c.messages[2]!.content).toMatch(/THE END$/)
      // What the model receives is the clipped text (give or take the line breaks joining
      // the parts), never the parent's whole prompt.
      expect(messageTokens(c)).toBeLessThanOrEqual(520)
    }
    const [clippedPrompt] = context(g, f, [longPrompt], { budget: 500 }).messages.slice(1)
    expect(clippedPrompt!.content).toMatch(/background QUESTION\?$/)
  })

  it('refuses a parent that is not in the flow', () => {
    const g = setup()
    const f = g.flow()
    const stranger = g.add(g.flow('other'), 'secret from another flow')
    expect(errorCode(() => context(g, f, [stranger]))).toBe('not_found')
  })
})

describe('build_context through the router', () => {
  it('speaks Japanese when the language is ja, and uses the flow budget over the app default', async () => {
    const core = startCore({ home: home(), mode: 'browser' })
    try {
      const call = async (method: string, input: unknown) => {
        const result = await core.router.call(method, input, { transport: 'internal' })
        if (!result.ok) throw new Error(`${method}: ${result.error.message}`)
        return result.value as never
      }
      const flow: { id: string } = await call('create_flow', { name: '旅行' })
      const root: { id: string } = await call('create_node', { flow_id: flow.id, prompt: '旅行の計画' })
      const parent: { id: string } = await call('create_node', {
        flow_id: flow.id,
        prompt: '京都について',
        response: 'お寺が多いです。',
        parent_ids: [root.id],
      })
      await call('update_settings', { language: 'ja', context_budget: 4000 })

      const c: ContextPreview = await call('build_context', {
        flow_id: flow.id,
        parent_ids: [parent.id],
        prompt: '食べ物は？',
      })
      expect(c.budget).toBe(4000)
      const system = c.messages[0]!.content
      expect(system).toMatch(/^あなたは役に立つアシスタントです。\n\n以下の情報を参照して回答してください。/)
      expect(system).toContain(`会話の流れ（古い順の要約）:\n[${root.id}] 旅行の計画`)
      expect(system).toContain('「[ノードID]の詳細を知りたい」')
      expect(c.messages.slice(1)).toEqual([
        { role: 'user', content: '京都について' },
        { role: 'assistant', content: 'お寺が多いです。' },
        { role: 'user', content: '食べ物は？' },
      ])

      await call('update_flow', { id: flow.id, token_budget: 1000 })
      await call('update_settings', { language: 'en' })
      const en: ContextPreview = await call('build_context', { flow_id: flow.id, parent_ids: [parent.id], prompt: 'x' })
      expect(en.budget).toBe(1000)
      expect(en.messages[0]!.content).toMatch(/^You are a helpful assistant\./)
    } finally {
      await core.dispose()
    }
  })
})
