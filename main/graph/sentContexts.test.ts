import { describe, expect, it } from 'vitest'
import { buildContext } from './context'
import { useGraph } from '../../tests/support/graphFixture'

// What a reply was generated from stays inspectable exactly, in a fraction of the space: a
// long conversation keeps one context per turn.

const setup = useGraph()

describe('the contexts replies were sent with', () => {
  it('come back exactly as sent, in under a fifth of the space of their JSON', () => {
    const g = setup()
    const f = g.flow()
    const reply = (i: number) =>
      `Reply ${i}: we walked past the old mill, talked about ${['roses', 'the fence', 'rain', 'my sister'][i % 4]} and the letters you kept. `.repeat(
        6,
      )
    let parent: string | null = null
    for (let i = 0; i < 120; i++)
      parent = g.add(f, `Turn ${i}: and then what happened?`, parent ? [parent] : [], { response: reply(i) })
    const context = buildContext({
      flow: g.graph.contextFlow(f, [parent!]),
      node: (id) => g.graph.getNode(id),
      parentIds: [parent!],
      prompt: 'Do you remember the mill?',
      budget: 8000,
      language: 'en',
    })
    const json = JSON.stringify(context)
    expect(json.length).toBeGreaterThan(30_000)
    g.graph.saveSentContext(parent!, context)

    expect(g.graph.sentContext(parent!)!.context).toEqual(context)
    const stored = g.db.prepare('SELECT length(context) FROM node_sent_contexts WHERE node_id = ?').pluck().get(parent)
    expect(stored).toBeLessThan(json.length / 5)
  })

  it('sent before they were compressed are still shown', () => {
    const g = setup()
    const f = g.flow()
    const node = g.add(f, 'an old turn')
    const old = {
      parts: [],
      total_tokens: 3,
      budget: 8000,
      dropped_node_ids: [],
      messages: [{ role: 'user' as const, content: 'hi' }],
    }
    g.db
      .prepare('INSERT INTO node_contexts (node_id, context_json, sent_at) VALUES (?, ?, ?)')
      .run(node, JSON.stringify(old), '2025-01-01T00:00:00.000Z')
    expect(g.graph.sentContext(node)).toEqual({ context: old, sent_at: '2025-01-01T00:00:00.000Z' })
    // A reply sent again (continued) is kept compressed and shown instead.
    const again = { ...old, total_tokens: 4 }
    g.graph.saveSentContext(node, again)
    expect(g.graph.sentContext(node)!.context).toEqual(again)
  })

  it('go with their node', () => {
    const g = setup()
    const f = g.flow()
    const root = g.add(f, 'root')
    const node = g.add(f, 'gone soon', [root])
    g.graph.saveSentContext(node, { parts: [], total_tokens: 1, budget: 8000, dropped_node_ids: [], messages: [] })
    g.graph.deleteNode({ id: node, flow_id: f, mode: 'reattach' })
    expect(g.db.prepare('SELECT count(*) FROM node_sent_contexts').pluck().get()).toBe(0)
  })
})
