import { describe, expect, it } from 'vitest'
import type { ContextPreview } from '@shared/contract'
import { buildContext } from './context'
import { useGraph } from '../../tests/support/graphFixture'
import { appSchema } from '../appSchema'
import { previousReleaseSteps } from '../../tests/support/previousRelease/previousReleaseSteps'
import { migrateDomains } from '../db/domainMigrations'
import { openDatabase, type Db } from '../db/open'
import { packContext } from './sentContexts'
import { GraphService } from './graphService'
import { EventBus } from '../kernel/events'

/** Pages every table and index of sent contexts takes (whatever the schema of the day). */
const sentContextBytes = (db: Db) =>
  db.prepare("SELECT coalesce(sum(payload), 0) FROM dbstat WHERE name LIKE '%sent_context%'").pluck().get() as number

/** Text that does not compress: a persona as users write it, a few KB of their own words. */
function prose(seed: number, words: number): string {
  let x = seed
  const out: string[] = []
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31
    out.push(x.toString(36))
  }
  return out.join(' ')
}

/** What a companion's turn is sent with: its persona text, a memory pack, its ancestors, the prompt. */
function companionContext(persona: string, memory: string, ancestors: string[], prompt: string): ContextPreview {
  const parts: ContextPreview['parts'] = [
    { kind: 'system', node_id: null, text: persona, tokens: 1500 },
    { kind: 'memory', node_id: null, text: memory, tokens: 400 },
    ...ancestors.map((id) => ({
      kind: 'ancestor_summary' as const,
      node_id: id,
      text: `- ${id}: ${prose(id.length + id.charCodeAt(0), 12)}`,
      tokens: 20,
    })),
    { kind: 'prompt', node_id: null, text: prompt, tokens: 12 },
  ]
  const history = parts.filter((p) => p.kind === 'ancestor_summary').map((p) => p.text)
  const system = [persona, memory, `History:\n${history.join('\n')}`].join('\n\n')
  return {
    parts,
    total_tokens: parts.reduce((n, p) => n + p.tokens, 0),
    budget: 8000,
    dropped_node_ids: [],
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: prompt },
    ],
  }
}

// What a reply was generated from stays inspectable exactly, in a fraction of the space: a
// long conversation keeps one context per turn.

const setup = useGraph()

describe('the contexts replies were sent with', () => {
  it('come back exactly as sent; the next turn adds under a twentieth of the space of its JSON', () => {
    const g = setup()
    const f = g.flow()
    const reply = (i: number) =>
      `Reply ${i}: we walked past the old mill, talked about ${['roses', 'the fence', 'rain', 'my sister'][i % 4]} and the letters you kept. `.repeat(
        6,
      )
    let parent: string | null = null
    const turn = (i: number) => {
      parent = g.add(f, `Turn ${i}: and then what happened?`, parent ? [parent] : [], { response: reply(i) })
      const context = buildContext({
        flow: g.graph.contextFlow(f, [parent]),
        node: (id) => g.graph.getNode(id),
        parentIds: [parent],
        prompt: 'Do you remember the mill?',
        budget: 8000,
        language: 'en',
      })
      g.graph.saveSentContext(parent, context)
      // Exactly: the same JSON, key for key.
      expect(JSON.stringify(g.graph.sentContext(parent)!.context)).toBe(JSON.stringify(context))
      return JSON.stringify(context).length
    }
    for (let i = 0; i < 119; i++)
      parent = g.add(f, `Turn ${i}: and then what happened?`, parent ? [parent] : [], { response: reply(i) })
    turn(119)
    const before = sentContextBytes(g.db)
    const json = turn(120)
    expect(json).toBeGreaterThan(30_000)
    expect(sentContextBytes(g.db) - before).toBeLessThan(json / 20)
  })

  it('of a node answered again and again keep the last one sent', () => {
    const g = setup()
    const f = g.flow()
    const node = g.add(f, 'Rain at noon', [], { response: '' })
    for (const prompt of ['first try', 'second try', 'third try']) {
      g.graph.saveSentContext(node, companionContext('You are Mika.', 'memory', [], prompt))
      expect(g.graph.sentContext(node)!.context.messages.at(-1)).toEqual({ role: 'user', content: prompt })
    }
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

  it('repeat their persona text, memory lines, ancestors and dropped ids once, not once a turn: 200 turns take far less than 200 copies', () => {
    const g = setup()
    const f = g.flow()
    const persona = prose(1, 1000) // ~7 KB that does not compress
    const ids: string[] = []
    let last: ContextPreview | null = null
    for (let i = 0; i < 200; i++) {
      const node = g.add(f, `Turn ${i}`, ids.length > 0 ? [ids.at(-1)!] : [])
      // The memory pack moves on by a line a turn (a new episode in, the oldest out).
      const memory = Array.from({ length: 40 }, (_, k) => `- ${prose(100 + i + k, 8)}`).join('\n')
      // The budget holds the newest 50 ancestors: the older ones are named as dropped, oldest first.
      last = {
        ...companionContext(persona, memory, ids.slice(-50), `Turn ${i}: and the roses?`),
        dropped_node_ids: ids.slice(0, -50),
      }
      g.graph.saveSentContext(node, last)
      ids.push(node)
    }
    expect(JSON.stringify(g.graph.sentContext(ids.at(-1)!)!.context)).toBe(JSON.stringify(last))
    // Migration 27 kept each context compressed on its own: the persona text 200 times, ~1.3 MB here.
    expect(sentContextBytes(g.db)).toBeLessThan(40 * persona.length)
  })

  it('write a block of dropped ids again when the turns that shared it were deleted and swept meanwhile', () => {
    const g = setup()
    const f = g.flow()
    const a = g.add(f, 'a')
    const b = g.add(f, 'b')
    const dropped = Array.from({ length: 600 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
    const context = { ...companionContext(prose(3, 20), prose(4, 10), [], 'a prompt'), dropped_node_ids: dropped }
    g.graph.saveSentContext(a, context)
    g.graph.deleteNode({ id: a, flow_id: f, mode: 'reattach' })
    // Another process starting up sweeps a's parts, the block of 512 among them.
    new GraphService(g.db, new EventBus())
    g.graph.saveSentContext(b, context)
    expect(g.graph.sentContext(b)!.context.dropped_node_ids).toEqual(dropped)
  })

  it('take parts no context refers to any more away at the next start', () => {
    const g = setup()
    const f = g.flow()
    const a = g.add(f, 'a')
    const b = g.add(f, 'b', [a])
    g.graph.saveSentContext(a, companionContext(prose(3, 200), prose(4, 50), [], 'shared prompt text here'))
    g.graph.saveSentContext(b, companionContext(prose(5, 200), prose(4, 50), [a], 'shared prompt text here'))
    const parts = () => g.db.prepare('SELECT count(*) FROM sent_context_parts').pluck().get() as number
    expect(parts()).toBe(5)
    g.graph.deleteNode({ id: b, flow_id: f, mode: 'reattach' })
    new GraphService(g.db, new EventBus())
    // b's persona text and its ancestor line are gone; the memory and prompt a still uses stay.
    expect(parts()).toBe(3)
    expect(g.graph.sentContext(a)!.context.parts[0]!.text).toBe(prose(3, 200))
  })

  it('keep the lines a long part shares with a deleted one', () => {
    const g = setup()
    const f = g.flow()
    const a = g.add(f, 'a')
    const b = g.add(f, 'b', [a])
    const memory = (from: number) => Array.from({ length: 30 }, (_, k) => `- ${prose(from + k, 8)}`).join('\n')
    const kept = companionContext(prose(3, 200), memory(0), [], 'the first prompt, long enough')
    g.graph.saveSentContext(a, kept)
    g.graph.saveSentContext(b, companionContext(prose(3, 200), memory(1), [a], 'the second prompt, long enough'))
    const rows = () => g.db.prepare('SELECT count(*) FROM sent_context_parts').pluck().get() as number
    const before = rows()
    g.graph.deleteNode({ id: b, flow_id: f, mode: 'reattach' })
    new GraphService(g.db, new EventBus())
    // b's memory pack, its one new line, its ancestor line and its prompt.
    expect(rows()).toBe(before - 4)
    expect(JSON.stringify(g.graph.sentContext(a)!.context)).toBe(JSON.stringify(kept))
  })

  it('stored whole before app migration 29 are rewritten against their parts and read back the same', () => {
    const db = openDatabase(':memory:', {
      migrations: previousReleaseSteps(appSchema).filter((m) => m.version < 29),
      label: 'test.db',
    }).db
    const contexts = [0, 1, 2].map((i) => companionContext(prose(9, 300), prose(10, 40), [], `Prompt number ${i} here`))
    contexts.forEach((c, i) => {
      db.prepare(
        "INSERT INTO nodes (id, prompt, response, timestamp, status) VALUES (?, 'p', 'r', '2025-01-01T00:00:00.000Z', 'complete')",
      ).run(`n${i}`)
      db.prepare('INSERT INTO node_sent_contexts (node_id, context, sent_at) VALUES (?, ?, ?)').run(
        `n${i}`,
        packContext(c),
        'then',
      )
    })
    migrateDomains(db, appSchema, 'test.db')
    expect(db.prepare('SELECT count(*) FROM sent_context_parts').pluck().get()).toBe(5)
    const graph = new GraphService(db, new EventBus())
    contexts.forEach((c, i) => expect(JSON.stringify(graph.sentContext(`n${i}`)!.context)).toBe(JSON.stringify(c)))
    db.close()
  })
})
