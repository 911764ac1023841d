import { join } from 'node:path'
import type { Persona } from '@shared/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useTempHome } from '../../../tests/support/tempHome'
import { appSchema } from '../../appSchema'
import { openDatabase, type Db } from '../../db/open'
import { GraphService } from '../../graph/graphService'
import { EventBus } from '../../kernel/events'
import { openMemory } from '../store/db'
import { UnitKind, UnitState } from '../store/enums'
import { reachOf, unitReach } from './reach'
import { buildPack } from './packBuilder'
import type { MemoryStore } from '../store/store'

// The cross-conversation rule over tree shapes, on real SQLite files: the app's graph and a
// persona's memory, as the app keeps them. Each fact is an episode told at one node; a pack
// for another node either recalls it or does not.

const NOW = 1_700_000_000
const home = useTempHome()
let open: { db: Db; store: MemoryStore } | null = null
afterEach(() => {
  open?.store.db.close()
  open?.db.close()
  open = null
})

function world() {
  const dir = home()
  const { db } = openDatabase(join(dir, 'loomverse.db'), { domains: appSchema, label: 'loomverse.db' })
  const graph = new GraphService(db, new EventBus())
  const store = openMemory(join(dir, 'memory_p.db'))
  open = { db, store }
  let tick = 0
  const w = {
    graph,
    store,
    flow(name: string, memoryPrivate = false): string {
      const id = graph.createFlow({ name }).id
      if (memoryPrivate) graph.updateFlow({ id, memory_private: true })
      return id
    },
    turn(flowId: string, prompt: string, parents: string[] = []): string {
      return graph.createNode({ flow_id: flowId, prompt, parent_ids: parents }).id
    },
    /** What the user told at a node: an episode of the node, as a chat exchange records it. */
    tell(flowId: string, nodeId: string, text: string): number {
      return store.createUnit({
        kind: UnitKind.EPISODE,
        source: 'chat',
        occurred_at: NOW - 3600 + tick++,
        origin_node_id: nodeId,
        origin_flow_id: flowId,
        payload: { user_text: text },
      })
    },
    /** The pack built for a turn at `nodeId` (its parents connected), as a reply gets it. */
    pack(flowId: string, nodeId: string, query: string, options: { private?: boolean } = {}) {
      return buildPack(store, {
        query,
        budget: 1500,
        now: NOW,
        path: reachOf(graph, {
          onPath: (id) => graph.pathTo(flowId, nodeId).has(id),
          nodeIds: [nodeId],
          private: options.private ?? graph.memoryPrivate(flowId),
        }),
      })
    },
    recalls(flowId: string, nodeId: string, query: string, options: { private?: boolean } = {}): string {
      return w.pack(flowId, nodeId, query, options).text
    },
  }
  return w
}

describe('what a node remembers across conversation trees', () => {
  it('separate conversations: a fact told in one reaches a new one of the same persona', () => {
    const w = world()
    const cats = w.flow('cats')
    const c1 = w.turn(cats, 'hi')
    const c2 = w.turn(cats, 'my cat', [c1])
    w.tell(cats, c2, 'My cat is called Mochi.')
    const later = w.flow('later')
    const l1 = w.turn(later, 'what is my cat called?')
    expect(w.recalls(later, l1, 'What is my cat called?')).toContain('Mochi')
    const item = w
      .pack(later, l1, 'What is my cat called?')
      .sections.flatMap((s) => s.items)
      .find((i) => i.text.includes('Mochi'))!
    expect(item.why).toContain('from another conversation')
    expect(item.refs).toContainEqual({ type: 'node', id: c2, flow_id: cats })
    // In its own conversation it is simply on the path.
    const c3 = w.turn(cats, 'again', [c2])
    expect(w.pack(cats, c3, 'What is my cat called?').sections.flatMap((s) => s.items)[0]?.why).not.toContain(
      'from another conversation',
    )
  })

  it('a second root in the same conversation is another tree: remembered', () => {
    const w = world()
    const f = w.flow('one canvas')
    const a = w.turn(f, 'first thread')
    w.tell(f, a, 'My cat is called Mochi.')
    const b = w.turn(f, 'second thread')
    expect(w.recalls(f, b, 'What is my cat called?')).toContain('Mochi')
  })

  it('forks: an ancestor’s fact is remembered, a sibling branch’s or one below a sibling is not', () => {
    const w = world()
    const f = w.flow('forks')
    const root = w.turn(f, 'hello')
    w.tell(f, root, 'My cat is called Mochi.')
    const left = w.turn(f, 'left', [root])
    const right = w.turn(f, 'right', [root])
    w.tell(f, right, 'My dog is called Biscuit.')
    const belowRight = w.turn(f, 'deeper right', [right])
    w.tell(f, belowRight, 'My parrot is called Kiwi.')
    const text = w.recalls(f, w.turn(f, 'next', [left]), 'What are my cat, dog and parrot called?')
    expect(text).toContain('Mochi')
    expect(text).not.toContain('Biscuit')
    expect(text).not.toContain('Kiwi')
  })

  it('story forks (IF routes) share their opening, so each route keeps to itself', () => {
    const w = world()
    const story = w.flow('story')
    const opening = w.turn(story, 'The gate of the castle.')
    const routeA = w.turn(story, 'I open the gate.', [opening])
    const routeB = w.turn(story, 'I climb the wall.', [opening])
    w.graph.nameBranch({ flow_id: story, source_id: opening, target_id: routeA, name: 'Route A' })
    w.graph.nameBranch({ flow_id: story, source_id: opening, target_id: routeB, name: 'Route B' })
    w.tell(story, routeA, 'The knight gave me a silver key.')
    w.tell(story, routeB, 'The witch gave me a golden key.')
    const onB = w.recalls(story, w.turn(story, 'onward', [routeB]), 'Which key was I given?')
    expect(onB).toContain('golden key')
    expect(onB).not.toContain('silver key')
  })

  it('merges: a node below two trees remembers both paths, and neither tree’s other branches', () => {
    const w = world()
    const f = w.flow('merge')
    const a1 = w.turn(f, 'tree A')
    const a2 = w.turn(f, 'A on', [a1])
    const aSide = w.turn(f, 'A side', [a1])
    const b1 = w.turn(f, 'tree B')
    const bSide = w.turn(f, 'B side', [b1])
    w.tell(f, a2, 'My cat is called Mochi.')
    w.tell(f, aSide, 'My dog is called Biscuit.')
    w.tell(f, b1, 'My parrot is called Kiwi.')
    w.tell(f, bSide, 'My hamster is called Nugget.')
    const merged = w.turn(f, 'both', [a2, b1])
    const text = w.recalls(f, merged, 'What are my cat, dog, parrot and hamster called?')
    expect(text).toContain('Mochi')
    expect(text).toContain('Kiwi')
    expect(text).not.toContain('Biscuit')
    expect(text).not.toContain('Nugget')
    // A third conversation is another tree to the merge: it is remembered there too.
    const other = w.flow('other')
    const o1 = w.turn(other, 'elsewhere')
    w.tell(other, o1, 'My rabbit is called Snow.')
    expect(w.recalls(f, merged, 'What is my rabbit called?')).toContain('Snow')
  })

  it('imports (no node) and the External conversation are remembered everywhere', () => {
    const w = world()
    w.store.createUnit({
      kind: UnitKind.EPISODE,
      source: 'import',
      occurred_at: NOW - 7200,
      payload: { user_text: 'My cat is called Mochi.' },
    })
    const ext = w.graph.personaFlowTail('External', 'p')
    const e1 = w.turn(ext.flow_id, 'notification')
    w.tell(ext.flow_id, e1, 'My dog is called Biscuit.')
    const f = w.flow('chat')
    const text = w.recalls(f, w.turn(f, 'hi'), 'What are my cat and dog called?')
    expect(text).toContain('Mochi')
    expect(text).toContain('Biscuit')
  })

  it('a fact derived from another conversation’s episode comes along; one resting on a sibling branch does not', () => {
    const w = world()
    const f = w.flow('forks')
    const root = w.turn(f, 'hello')
    const left = w.turn(f, 'left', [root])
    const right = w.turn(f, 'right', [root])
    const other = w.flow('other')
    const o1 = w.turn(other, 'elsewhere')
    const fact = (evidence: number, text: string) =>
      w.store.createUnit({
        kind: UnitKind.FACT,
        source: 'extract',
        state: UnitState.VALIDATED,
        evidence: [evidence],
        payload: { predicate: 'is', object_text: text, evidence_unit_ids_json: JSON.stringify([evidence]) },
      })
    fact(w.tell(other, o1, 'I play the violin.'), 'the user plays the violin')
    fact(w.tell(f, right, 'I play the cello.'), 'the user plays the cello')
    const text = w.recalls(f, w.turn(f, 'next', [left]), 'Which instrument does the user play?')
    expect(text).toContain('violin')
    expect(text).not.toContain('cello')
  })

  it('re-parenting between trees: a branch dragged under another tree joins it, and leaves when dragged away', () => {
    const w = world()
    const f = w.flow('canvas')
    const a1 = w.turn(f, 'tree A')
    const a2 = w.turn(f, 'A on', [a1])
    const b1 = w.turn(f, 'tree B')
    const b2 = w.turn(f, 'B on', [b1])
    w.tell(f, b2, 'My dog is called Biscuit.')
    const query = 'What is my dog called?'
    // Two trees: A remembers B.
    expect(w.recalls(f, a2, query)).toContain('Biscuit')
    // B's second turn dragged under A's first: now a sibling branch of A's path.
    w.graph.reconnect({ flow_id: f, source_id: b1, target_id: b2, new_source_id: a1, new_target_id: b2 })
    expect(w.recalls(f, a2, query)).not.toContain('Biscuit')
    // Undone: two trees again.
    w.graph.undo(f)
    expect(w.recalls(f, a2, query)).toContain('Biscuit')
    // Merged: B's turn under both A's root and its own, so A's tree is B's too.
    w.graph.connect({ flow_id: f, source_id: a1, target_id: b2 })
    expect(w.recalls(f, a2, query)).not.toContain('Biscuit')
    // Disconnected from A again.
    w.graph.disconnect({ flow_id: f, source_id: a1, target_id: b2 })
    expect(w.recalls(f, a2, query)).toContain('Biscuit')
  })

  it('a deleted turn is forgotten: its episode reaches no conversation', () => {
    const w = world()
    const f = w.flow('gone')
    const g1 = w.turn(f, 'soon gone')
    w.tell(f, g1, 'My dog is called Biscuit.')
    w.graph.deleteNode({ id: g1, flow_id: f })
    const other = w.flow('other')
    expect(w.recalls(other, w.turn(other, 'hi'), 'What is my dog called?')).not.toContain('Biscuit')
  })

  it('a conversation put in the trash is forgotten at once, and remembered again when restored', () => {
    const w = world()
    const f = w.flow('trip')
    const t1 = w.turn(f, 'planning')
    w.tell(f, t1, 'My passport number ends in 4421.')
    const other = w.flow('other')
    const o1 = w.turn(other, 'hi')
    expect(w.recalls(other, o1, 'What does my passport number end in?')).toContain('4421')
    w.graph.trashFlow(f)
    expect(w.recalls(other, o1, 'What does my passport number end in?')).not.toContain('4421')
    w.graph.restoreFlow(f)
    expect(w.recalls(other, o1, 'What does my passport number end in?')).toContain('4421')
  })

  it('private: a private conversation remembers only its own path, and lends nothing to others', () => {
    const w = world()
    const open = w.flow('open')
    const o1 = w.turn(open, 'open talk')
    w.tell(open, o1, 'My cat is called Mochi.')
    const secret = w.flow('diary', true)
    const s1 = w.turn(secret, 'just between us')
    w.tell(secret, s1, 'My dog is called Biscuit.')
    const s2 = w.turn(secret, 'more', [s1])
    // The private one: its own path, not the other conversation.
    const inside = w.recalls(secret, s2, 'What are my cat and dog called?')
    expect(inside).toContain('Biscuit')
    expect(inside).not.toContain('Mochi')
    // The others never hear of it.
    const fresh = w.flow('fresh')
    const outside = w.recalls(fresh, w.turn(fresh, 'hi'), 'What are my cat and dog called?')
    expect(outside).toContain('Mochi')
    expect(outside).not.toContain('Biscuit')
    // Made shared again, it is remembered elsewhere as before (the switch hides, it deletes nothing).
    w.graph.updateFlow({ id: secret, memory_private: false })
    expect(w.recalls(fresh, w.turn(fresh, 'again'), 'What is my dog called?')).toContain('Biscuit')
    // A persona whose conversations are all private (the caller's `private`): the path alone.
    expect(w.recalls(fresh, w.turn(fresh, 'third'), 'What is my cat called?', { private: true })).not.toContain('Mochi')
  })

  it('a global unit is remembered everywhere, private conversations included', () => {
    const w = world()
    const f = w.flow('forks')
    const root = w.turn(f, 'hello')
    const left = w.turn(f, 'left', [root])
    const right = w.turn(f, 'right', [root])
    const id = w.tell(f, right, 'My dog is called Biscuit.')
    w.store.editMeta(id, { is_global: true }, 'promoted to global')
    expect(w.recalls(f, w.turn(f, 'next', [left]), 'What is my dog called?', { private: true })).toContain('Biscuit')
  })

  it('the capsule stays with its own conversation', () => {
    const w = world()
    const other = w.flow('other')
    const o1 = w.turn(other, 'elsewhere')
    const ep = w.tell(other, o1, 'I am nervous about the exam.')
    w.store.createUnit({
      kind: UnitKind.CAPSULE,
      source: 'capsule',
      state: UnitState.VALIDATED,
      occurred_at: NOW - 60,
      evidence: [ep],
      payload: { expires_at: NOW + 3600, capsule_json: JSON.stringify({ text: 'Mood: nervous; focus: the exam' }) },
    })
    const f = w.flow('new')
    const pack = w.pack(f, w.turn(f, 'hi'), 'How am I?')
    expect(pack.sections.some((s) => s.kind === 'capsule')).toBe(false)
    expect(w.pack(other, o1, 'How am I?').sections.some((s) => s.kind === 'capsule')).toBe(true)
  })
})

describe('which conversations may remember a unit (the memory panel)', () => {
  it('tells each of the persona’s conversations: its own on the branch, others anywhere, private ones not at all', () => {
    const w = world()
    const persona = { id: 'p', memory_private: false } as Persona
    const bound = (name: string, memoryPrivate = false) => {
      const id = w.flow(name, memoryPrivate)
      w.graph.updateFlow({ id, persona_id: 'p' })
      return id
    }
    const pets = bound('Pets')
    const diary = bound('Diary', true)
    bound('Later')
    const p1 = w.turn(pets, 'hi')
    const cat = w.tell(pets, p1, 'My cat is called Mochi.')
    const d1 = w.turn(diary, 'dear diary')
    const cafe = w.tell(diary, d1, 'My favourite café is Blue Door.')
    const sees = (unitId: number, who = persona) =>
      Object.fromEntries(unitReach(w.graph, who, w.store, unitId).conversations.map((c) => [c.name, c.sees]))
    expect(unitReach(w.graph, persona, w.store, cat).rule).toBe('shared')
    expect(sees(cat)).toEqual({ Pets: 'branch', Diary: 'none', Later: 'all' })
    expect(unitReach(w.graph, persona, w.store, cafe).rule).toBe('private')
    expect(sees(cafe)).toEqual({ Diary: 'branch', Pets: 'none', Later: 'none' })
    // A persona that keeps every conversation to itself.
    expect(sees(cat, { ...persona, memory_private: true })).toEqual({ Pets: 'branch', Diary: 'none', Later: 'none' })
    // Promoted to global: everywhere. Imported: everywhere. Its turn deleted: nowhere.
    w.store.editMeta(cafe, { is_global: true }, 'promoted to global')
    expect(unitReach(w.graph, persona, w.store, cafe)).toMatchObject({ rule: 'global' })
    const imported = w.store.createUnit({ kind: UnitKind.EPISODE, source: 'import', payload: { user_text: 'x' } })
    expect(unitReach(w.graph, persona, w.store, imported).rule).toBe('not_from_a_conversation')
    w.graph.deleteNode({ id: p1, flow_id: pets })
    expect(unitReach(w.graph, persona, w.store, cat).rule).toBe('gone')
    expect(new Set(Object.values(sees(cat)))).toEqual(new Set(['none']))
  })
})

describe('tree roots are kept, not read again for every pack', () => {
  it('a new turn below a looked-up node reads nothing above it; a new conversation, one lookup', () => {
    const w = world()
    const f = w.flow('long')
    let last = w.turn(f, 'turn 0')
    for (let i = 1; i < 50; i++) last = w.turn(f, `turn ${i}`, [last])
    const other = w.flow('other')
    const o1 = w.turn(other, 'hi')
    // First look: read upwards once.
    expect([...w.graph.nodeTrees([last, o1]).get(last)!.roots]).toHaveLength(1)
    const above = vi.spyOn(w.graph.store, 'edgesAbove')
    const next = w.turn(f, 'turn 50', [last])
    const o2 = w.turn(other, 'more', [o1])
    const trees = w.graph.nodeTrees([next, o2])
    expect(above).not.toHaveBeenCalled()
    // A new conversation: one look upwards, which finds nothing above its first turn.
    const t1 = w.turn(w.flow('third'), 'new root')
    expect(w.graph.nodeTrees([t1]).get(t1)!.roots).toEqual(new Set([t1]))
    expect(above).toHaveBeenCalledTimes(1)
    expect(trees.get(next)!.roots).toEqual(w.graph.nodeTrees([last]).get(last)!.roots)
    expect(trees.get(o2)!.roots).toEqual(new Set([o1]))
  })
})
