import { describe, expect, it } from 'vitest'
import type { FlowSummary } from '@shared/contract'
import { filterConversations } from './filterConversations'

function flow(name: string, persona_id: string | null): FlowSummary {
  return {
    id: crypto.randomUUID(),
    name,
    description: '',
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
    persona_id,
    node_count: 0,
    pinned: false,
    name_source: 'user',
    last_activity: '2026-01-01T00:00:00.000Z',
  }
}

const personas: Record<string, string> = { sora: 'Sora', hana: '花子' }
const name = (id: string | null) => (id ? (personas[id] ?? '') : '')
const flows = [flow('Trip to Kyoto', 'sora'), flow('京都の紅葉', 'hana'), flow('Tax notes', null)]

describe('filtering the conversation list', () => {
  it('matches every word in the name or the persona, ignoring case and width', () => {
    expect(filterConversations(flows, 'kyoto', name).map((f) => f.name)).toEqual(['Trip to Kyoto'])
    expect(filterConversations(flows, 'ＫＹＯＴＯ sora', name).map((f) => f.name)).toEqual(['Trip to Kyoto'])
    expect(filterConversations(flows, '花子', name).map((f) => f.name)).toEqual(['京都の紅葉'])
    expect(filterConversations(flows, 'kyoto hana', name)).toEqual([])
  })

  it('keeps the whole list, in its order, for an empty query', () => {
    expect(filterConversations(flows, '  ', name)).toBe(flows)
  })
})
