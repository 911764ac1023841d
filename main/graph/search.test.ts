import { describe, expect, it } from 'vitest'
import type { Parsed } from '@shared/contract'
import { errorCode, useGraph, type GraphFixture } from '../../tests/support/graphFixture'
import { listTags, searchNodes } from './search'

const setup = useGraph()

function find(g: GraphFixture, query: Parsed<'search_nodes'>): string[] {
  return searchNodes(g.graph.store, query).map((hit) => hit.prompt)
}

describe('search_nodes', () => {
  it('finds Japanese text by a keyword of three or more characters (FTS trigram)', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, '今日は東京で桜を見ました')
    g.add(f, '京都で紅葉を見ました')
    expect(find(g, { keywords: ['東京で桜'] })).toEqual(['今日は東京で桜を見ました'])
    expect(find(g, { keywords: ['を見ました'] })).toEqual(['京都で紅葉を見ました', '今日は東京で桜を見ました'])
  })

  it('finds one- and two-character keywords too', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, '今日は東京で桜を見ました')
    g.add(f, '京都で紅葉を見ました')
    g.add(f, 'a reply follows', [], { response: 'Go ahead' })
    expect(find(g, { keywords: ['桜'] })).toEqual(['今日は東京で桜を見ました'])
    expect(find(g, { keywords: ['京都'] })).toEqual(['京都で紅葉を見ました'])
    expect(find(g, { keywords: ['go'] })).toEqual(['a reply follows'])
  })

  it('matches case-insensitively in prompt, response and summary', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, 'question', [], { response: 'The Answer is here' })
    const summarised = g.add(f, 'other')
    g.summarise(summarised, 'about ANSWERS')
    expect(find(g, { keywords: ['answer'] }).sort()).toEqual(['other', 'question'])
  })

  it('needs every keyword and every tag to match', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, 'red apple', [], { tags: ['fruit', 'red'] })
    g.add(f, 'green apple', [], { tags: ['fruit'] })
    g.add(f, 'red car', [], { tags: ['red'] })
    expect(find(g, { keywords: ['apple', 'red'] })).toEqual(['red apple'])
    expect(find(g, { tags: ['fruit'] })).toEqual(['green apple', 'red apple'])
    expect(find(g, { tags: ['fruit', 'red'] })).toEqual(['red apple'])
    expect(find(g, { tags: ['red'], keywords: ['car'] })).toEqual(['red car'])
  })

  it('keeps to one flow when asked, and says which flows hold each hit', () => {
    const g = setup()
    const f = g.flow()
    const other = g.flow('other')
    const shared = g.add(f, 'shared note')
    g.share(shared, other)
    g.add(other, 'other note')
    expect(find(g, { keywords: ['note'], flow_id: f })).toEqual(['shared note'])
    const hits = searchNodes(g.graph.store, { keywords: ['note'] })
    expect(hits.map((h) => [h.prompt, h.flow_ids.sort()])).toEqual([
      ['other note', [other]],
      ['shared note', [f, other].sort()],
    ])
    // By name too, as a result names the conversation it is from.
    const names = new Map([
      [f, g.graph.getFlow(f).name],
      [other, 'other'],
    ])
    for (const hit of hits) expect(hit.flows).toEqual(hit.flow_ids.map((id) => ({ id, name: names.get(id) })))
  })

  it('marks every match in the excerpt with ⟦ ⟧', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, '今日は東京で桜を見ました。桜がきれい', [], { tags: ['travel'] })
    const [hit] = searchNodes(g.graph.store, { keywords: ['桜'] })
    expect(hit?.excerpt).toBe('今日は東京で⟦桜⟧を見ました。⟦桜⟧がきれい')
    g.add(f, 'Tokyo trip, then tokyo again')
    const [latin] = searchNodes(g.graph.store, { keywords: ['TOKYO'] })
    expect(latin?.excerpt).toBe('⟦Tokyo⟧ trip, then ⟦tokyo⟧ again')
  })

  it('shows the text around a match far into a long reply', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, 'long one', [], { response: `${'x'.repeat(500)} needle ${'y'.repeat(500)}` })
    const [hit] = searchNodes(g.graph.store, { keywords: ['needle'] })
    expect(hit?.excerpt).toMatch(/^….*x ⟦needle⟧ y.*…$/)
    expect(hit!.excerpt.length).toBeLessThan(250)
  })

  it('treats %, _ and \\ in a keyword as plain characters', () => {
    const g = setup()
    const f = g.flow()
    g.add(f, 'plain text')
    g.add(f, '100% sure')
    g.add(f, 'snake_case')
    g.add(f, 'C:\\dir')
    expect(find(g, { keywords: ['%'] })).toEqual(['100% sure'])
    expect(find(g, { keywords: ['_'] })).toEqual(['snake_case'])
    expect(find(g, { keywords: ['\\'] })).toEqual(['C:\\dir'])
    expect(find(g, { keywords: ['0% s'] })).toEqual(['100% sure'])
    expect(find(g, { keywords: ['"quoted"'] })).toEqual([])
  })

  it('finds edited text by its new words and no longer by the old ones, and again after undo', () => {
    const g = setup()
    const f = g.flow()
    const id = g.add(f, 'about penguins', [], { response: 'they swim' })
    g.graph.updateNode({ id, prompt: 'about albatrosses', response: 'they glide' })
    expect(find(g, { keywords: ['penguins'] })).toEqual([])
    expect(find(g, { keywords: ['swim'] })).toEqual([])
    expect(find(g, { keywords: ['albatross'] })).toEqual(['about albatrosses'])
    g.graph.undo(f)
    expect(find(g, { keywords: ['penguins'] })).toEqual(['about penguins'])
    expect(find(g, { keywords: ['albatross'] })).toEqual([])
  })

  it('forgets deleted nodes and finds them again when the delete is undone', () => {
    const g = setup()
    const f = g.flow()
    const id = g.add(f, 'ephemeral thought', [], { tags: ['idea'] })
    g.graph.deleteNode({ flow_id: f, id })
    expect(find(g, { keywords: ['ephemeral'] })).toEqual([])
    expect(find(g, { tags: ['idea'] })).toEqual([])
    g.graph.undo(f)
    expect(find(g, { keywords: ['ephemeral'] })).toEqual(['ephemeral thought'])
    expect(find(g, { tags: ['idea'] })).toEqual(['ephemeral thought'])
  })

  it('refuses a search with neither tags nor keywords', () => {
    const g = setup()
    expect(errorCode(() => searchNodes(g.graph.store, {}))).toBe('bad_input')
  })

  it('stops at the limit, newest first', () => {
    const g = setup()
    const f = g.flow()
    for (const n of [1, 2, 3, 4]) g.add(f, `note ${n}`)
    expect(find(g, { keywords: ['note'], limit: 2 })).toEqual(['note 4', 'note 3'])
  })
})

describe('list_tags', () => {
  it('counts each tag, most used first, overall or in one flow', () => {
    const g = setup()
    const f = g.flow()
    const other = g.flow('other')
    g.add(f, 'a', [], { tags: ['travel', 'food'] })
    g.add(f, 'b', [], { tags: ['food'] })
    g.add(other, 'c', [], { tags: ['food', 'art'] })
    expect(listTags(g.graph.store)).toEqual([
      { tag: 'food', count: 3 },
      { tag: 'art', count: 1 },
      { tag: 'travel', count: 1 },
    ])
    expect(listTags(g.graph.store, f)).toEqual([
      { tag: 'food', count: 2 },
      { tag: 'travel', count: 1 },
    ])
  })
})
