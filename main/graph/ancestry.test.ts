import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appSchema } from '../appSchema'
import { openDatabase } from '../db/open'
import { EventBus } from '../kernel/events'
import { buildContext } from './context'
import { GraphService } from './graphService'
import { useGraph, type GraphFixture } from '../../tests/support/graphFixture'

// The kept ancestry must never show a prompt a history the graph no longer has: every way the
// path above a turn changes is tried after the path was read (and kept) once.

const setup = useGraph()

/** The history a prompt below `parent` would be sent with, oldest first (prompts of the ancestors and the parent). */
function historyBelow(g: GraphFixture, flowId: string, parent: string): string[] {
  const context = buildContext({
    flow: g.graph.contextFlow(flowId, [parent]),
    node: (id) => g.graph.getNode(id),
    parentIds: [parent],
    prompt: 'next',
    budget: 100_000,
    language: 'en',
  })
  return context.parts.filter((p) => p.kind === 'ancestor_summary' || p.kind === 'parent').map((p) => p.node_id!)
}

const prompts = (g: GraphFixture, ids: string[]) => ids.map((id) => g.graph.getNode(id).prompt)

describe('the path above a turn, kept between turns', () => {
  it('grows by one turn at a time and matches a fresh reading of the graph', () => {
    const g = setup()
    const f = g.flow()
    const ids = g.chain(f, 't0', 't1', 't2')
    for (let i = 3; i < 40; i++) {
      historyBelow(g, f, ids.at(-1)!)
      ids.push(g.add(f, `t${i}`, [ids.at(-1)!]))
    }
    expect(prompts(g, historyBelow(g, f, ids.at(-1)!))).toEqual(ids.map((_, i) => `t${i}`))
    const fresh = new GraphService(g.db, new EventBus())
    expect([...g.graph.pathTo(f, ids.at(-1)!)].sort()).toEqual([...fresh.pathTo(f, ids.at(-1)!)].sort())
  })

  it('keeps each turn to its own path when turns below one node share what is above it (a retry)', () => {
    const g = setup()
    const f = g.flow()
    const [root, a1] = g.chain(f, 'root', 'a1') as [string, string]
    expect(prompts(g, historyBelow(g, f, a1))).toEqual(['root', 'a1'])
    const a2 = g.add(f, 'a2', [a1])
    expect(prompts(g, historyBelow(g, f, a2))).toEqual(['root', 'a1', 'a2'])
    // A second child of a1 while a2's path already runs on past it.
    const b2 = g.add(f, 'b2', [a1])
    expect(prompts(g, historyBelow(g, f, b2))).toEqual(['root', 'a1', 'b2'])
    const a3 = g.add(f, 'a3', [a2])
    expect(prompts(g, historyBelow(g, f, a3))).toEqual(['root', 'a1', 'a2', 'a3'])
    expect(g.graph.pathTo(f, a1).has(a2)).toBe(false)
    expect(g.graph.pathTo(f, a2).has(a3)).toBe(false)
    expect(g.graph.pathTo(f, b2).has(a2)).toBe(false)
    expect(g.graph.pathTo(f, a3).has(b2)).toBe(false)
    expect([...g.graph.pathTo(f, a3)]).toEqual([root, a1, a2, a3])
    expect(g.graph.pathTo(f, a2).size).toBe(3)
  })

  it('follows a turn dragged onto another branch, and back by undo', () => {
    const g = setup()
    const f = g.flow()
    const [root, a1, a2, a3] = g.chain(f, 'root', 'a1', 'a2', 'a3') as [string, string, string, string]
    const b1 = g.add(f, 'b1', [root])
    expect(prompts(g, historyBelow(g, f, a3))).toEqual(['root', 'a1', 'a2', 'a3'])
    g.graph.reconnect({ flow_id: f, source_id: a1, target_id: a2, new_source_id: b1, new_target_id: a2 })
    expect(prompts(g, historyBelow(g, f, a3))).toEqual(['root', 'b1', 'a2', 'a3'])
    expect(g.graph.pathTo(f, a3).has(a1)).toBe(false)
    g.graph.undo(f)
    expect(prompts(g, historyBelow(g, f, a3))).toEqual(['root', 'a1', 'a2', 'a3'])
  })

  it('drops a deleted ancestor and takes in a merged branch', () => {
    const g = setup()
    const f = g.flow()
    const [root, a1, a2] = g.chain(f, 'root', 'a1', 'a2') as [string, string, string]
    const b1 = g.add(f, 'b1', [root])
    expect(prompts(g, historyBelow(g, f, a2))).toEqual(['root', 'a1', 'a2'])
    g.graph.connect({ flow_id: f, source_id: b1, target_id: a2 })
    expect(prompts(g, historyBelow(g, f, a2))).toEqual(['root', 'a1', 'b1', 'a2'])
    g.graph.disconnect({ flow_id: f, source_id: a1, target_id: a2 })
    expect(prompts(g, historyBelow(g, f, a2))).toEqual(['root', 'b1', 'a2'])
    g.graph.deleteNode({ id: b1, flow_id: f, mode: 'reattach' })
    expect(prompts(g, historyBelow(g, f, a2))).toEqual(['root', 'a2'])
  })
})

describe('changes made by another connection', () => {
  let close: (() => void) | null = null
  afterEach(() => {
    close?.()
    close = null
  })

  /** The app's graph and the CLI's, on one database file, with a flow root → a1 → a2 and root → b1. */
  function twoConnections() {
    const dir = mkdtempSync(join(tmpdir(), 'loomverse-ancestry-'))
    const file = join(dir, 'loomverse.db')
    const app = openDatabase(file, { domains: appSchema, label: 'loomverse.db' }).db
    const cli = openDatabase(file, { domains: appSchema, label: 'loomverse.db' }).db
    close = () => {
      app.close()
      cli.close()
      rmSync(dir, { recursive: true, force: true })
    }
    const graph = new GraphService(app, new EventBus())
    const f = graph.createFlow({ name: 'shared' }).id
    const root = graph.createNode({ flow_id: f, prompt: 'root' }).id
    const a1 = graph.createNode({ flow_id: f, prompt: 'a1', parent_ids: [root] }).id
    const a2 = graph.createNode({ flow_id: f, prompt: 'a2', parent_ids: [a1] }).id
    const b1 = graph.createNode({ flow_id: f, prompt: 'b1', parent_ids: [root] }).id
    return { graph, other: new GraphService(cli, new EventBus()), f, root, a1, a2, b1 }
  }

  it('are seen by the app: a turn re-parented from the CLI is sent with its new history', () => {
    const { graph, other, f, root, a1, a2, b1 } = twoConnections()
    expect(graph.pathTo(f, a2).has(a1)).toBe(true)
    other.reconnect({ flow_id: f, source_id: a1, target_id: a2, new_source_id: b1, new_target_id: a2 })
    expect([...graph.pathTo(f, a2)].sort()).toEqual([root, b1, a2].sort())
  })

  it('are seen below turns the app wrote through create_node alone, no prompt between them', () => {
    const { graph, other, f, root, a1, a2, b1 } = twoConnections()
    expect(graph.pathTo(f, a2).has(a1)).toBe(true)
    // A program feeding the conversation turn by turn: each turn's path is kept below its parent's.
    const a3 = graph.createNode({ flow_id: f, prompt: 'a3', parent_ids: [a2] }).id
    const a4 = graph.createNode({ flow_id: f, prompt: 'a4', parent_ids: [a3] }).id
    other.reconnect({ flow_id: f, source_id: a1, target_id: a2, new_source_id: b1, new_target_id: a2 })
    expect([...graph.pathTo(f, a4)]).toEqual([root, b1, a2, a3, a4])
    expect(graph.pathTo(f, a3).has(a1)).toBe(false)
  })

  it("are seen after a window opened the flow (whose newest turn's path was kept from that reading)", () => {
    const { graph, other, f, root, a1, a2, b1 } = twoConnections()
    expect(graph.openFlow(f).nodes).toHaveLength(4)
    expect([...graph.pathTo(f, b1)]).toEqual([root, b1])
    other.connect({ flow_id: f, source_id: a2, target_id: b1 })
    expect([...graph.pathTo(f, b1)].sort()).toEqual([root, a1, a2, b1].sort())
    expect([...graph.pathTo(f, b1)].at(-1)).toBe(b1)
  })

  it('are seen even when the change log was trimmed past what the app had read', () => {
    const { graph, other, f, root, a1, b1 } = twoConnections()
    expect(graph.pathTo(f, a1).has(root)).toBe(true)
    other.disconnect({ flow_id: f, source_id: root, target_id: a1 })
    other.connect({ flow_id: f, source_id: b1, target_id: a1 })
    // The one row left after the trim is about another node: only the gap tells the app.
    other.createNode({ flow_id: f, prompt: 'elsewhere', parent_ids: [root] })
    const log = other.store.changeLog('connection_changes')
    log.forget(log.last() - 1)
    expect([...graph.pathTo(f, a1)].sort()).toEqual([root, b1, a1].sort())
  })
})
