import { describe, expect, it } from 'vitest'
import type { ContextPart, Node } from '@shared/contract'
import { tokenCount } from '../kernel/tokens'
import { buildStoryContext, type StoryContextInput } from './storyContext'

/** A linear story of `n` turns after an opening scene; ids are `t0` (the opening) … `tn`. */
function story(n: number, words = 20) {
  const nodes = new Map<string, Node>()
  for (let i = 0; i <= n; i++) {
    nodes.set(`t${i}`, {
      id: `t${i}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      prompt: i === 0 ? '' : `turn ${i}: ${'walk '.repeat(words)}`,
      response: `reply ${i}: ${'rain '.repeat(words)}`,
      status: 'complete',
      error: null,
      metadata: { model: '', stats: {}, summary: { text: '', updated: false, last_built: null }, tags: [] },
    })
  }
  const parentsOf = (id: string) => {
    const i = Number(id.slice(1))
    return i > 0 ? [`t${i - 1}`] : []
  }
  return { nodes, parentsOf }
}

function input(n: number, over: Partial<StoryContextInput> = {}): StoryContextInput {
  const { nodes, parentsOf } = story(n)
  const sheet = '# Mira\n\nA guarded traveller.'
  const scenario: ContextPart[] = [{ kind: 'scenario', node_id: null, text: sheet, tokens: tokenCount(sheet) }]
  return {
    flowId: 'f',
    systemPrompt: 'You are the game master.',
    parentIds: [`t${n}`],
    prompt: 'I open the door.',
    budget: 100_000,
    language: 'en',
    story: { scenario, summary: null, coveredNodeId: null },
    node: (id) => nodes.get(id)!,
    isMember: (id) => nodes.has(id),
    parentsOf,
    ...over,
  }
}

describe('a story turn’s context (NovelADV seed ④)', () => {
  it('keeps the turns after the summary word for word, oldest first, and leaves the covered ones out', () => {
    const built = buildStoryContext(
      input(10, { story: { ...input(10).story, summary: 'Mira joined.', coveredNodeId: 't6' } }),
    )
    expect(built.parts.map((p) => p.kind)).toEqual([
      'system',
      'scenario',
      'story_summary',
      'recent_turn',
      'recent_turn',
      'recent_turn',
      'parent',
      'prompt',
    ])
    expect(built.parts.filter((p) => p.kind === 'recent_turn').map((p) => p.node_id)).toEqual(['t7', 't8', 't9'])
    expect(built.messages[0]!.content).toContain('The story so far:\nMira joined.')
    expect(built.messages.filter((m) => m.role === 'user').map((m) => m.content.split(':')[0])).toEqual([
      'turn 7',
      'turn 8',
      'turn 9',
      'turn 10',
      'I open the door.',
    ])
  })

  it('fills a small budget with the newest turns only, with no holes, and stays within it', () => {
    const built = buildStoryContext(input(400, { budget: 1200 }))
    const recent = built.parts.filter((p) => p.kind === 'recent_turn').map((p) => Number(p.node_id!.slice(1)))
    expect(recent.length).toBeGreaterThan(3)
    expect(recent.length).toBeLessThan(100)
    expect(recent.at(-1)).toBe(399)
    expect(recent).toEqual(recent.map((_, i) => recent[0]! + i)) // consecutive
    expect(built.dropped_node_ids).toEqual([`t${recent[0]! - 1}`])
    expect(built.total_tokens).toBeLessThanOrEqual(1200)
  })

  it('reads only the turns that fit, however long the path', () => {
    const small = input(400, { budget: 1200 })
    let reads = 0
    const counted = { ...small, node: (id: string) => (reads++, small.node(id)) }
    buildStoryContext(counted)
    expect(reads).toBeLessThan(200) // a 400-turn path, and a few dozen turns fit
  })

  it('refuses a parent from another flow', () => {
    expect(() => buildStoryContext(input(3, { parentIds: ['elsewhere'], isMember: () => false }))).toThrow(
      /not in flow f/,
    )
  })
})
