import { describe, expect, it } from 'vitest'
import { useGraph } from '../../tests/support/graphFixture'
import type { ImportedNode } from './graphService'

const setup = useGraph()

/** A conversation of `n` turns, each the answer to the one before. */
function conversation(n: number): ImportedNode[] {
  return Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    prompt: `question ${i}`,
    response: `answer ${i}`,
    model: 'chatgpt',
    status: 'complete',
    parents: i === 0 ? [] : [i - 1],
  }))
}

describe('importing a long conversation', () => {
  it('writes it in slices, answering other calls between them, and shows the flow only once it is whole', async () => {
    const g = setup()
    const kept = g.flow('kept')
    const seen: Array<{ written: number; listed: string[] }> = []
    let written = 0
    const importing = g.graph.importFlow({ name: 'imported', description: 'from elsewhere' }, conversation(1000), {
      sliceMs: 0, // every slice as small as it gets (8 nodes): the test does not depend on the machine's speed
      onProgress: (n) => {
        written = n
        // What another window asking now would be told, in the turn after this slice.
        setImmediate(() => seen.push({ written, listed: g.graph.listFlows().map((f) => f.name) }))
      },
    })
    const { flow_id, node_ids } = await importing
    expect(seen.length).toBeGreaterThan(10)
    expect(seen[0]!.written).toBeLessThan(1000)
    for (const s of seen) expect(s.listed).toEqual(['kept'])
    expect(
      g.graph
        .listFlows()
        .map((f) => f.id)
        .sort(),
    ).toEqual([kept, flow_id].sort())
    const flow = g.graph.getFlow(flow_id)
    expect(flow.nodes).toHaveLength(1000)
    expect(flow.connections).toHaveLength(999)
    expect(g.graph.getNode(node_ids[999]!)).toMatchObject({ prompt: 'question 999', response: 'answer 999' })
  })

  it('leaves nothing behind when a later slice fails', async () => {
    const g = setup()
    const before = g.db.prepare('SELECT count(*) FROM nodes').pluck().get()
    const nodes = conversation(500)
    nodes[300] = { ...nodes[300]!, status: 'no such status' as ImportedNode['status'] }
    await expect(g.graph.importFlow({ name: 'broken', description: '' }, nodes, { sliceMs: 0 })).rejects.toThrow(
      /CHECK constraint/,
    )
    expect(g.graph.listFlows()).toEqual([])
    expect(g.db.prepare('SELECT count(*) FROM flows').pluck().get()).toBe(0)
    expect(g.db.prepare('SELECT count(*) FROM nodes').pluck().get()).toBe(before)
  })

  it('refuses a node that names a later one as its parent before writing anything', async () => {
    const g = setup()
    const nodes = conversation(3)
    nodes[1] = { ...nodes[1]!, parents: [2] }
    await expect(g.graph.importFlow({ name: 'x', description: '' }, nodes)).rejects.toThrow(
      'node 1 names a later node (2) as its parent',
    )
    expect(g.db.prepare('SELECT count(*) FROM flows').pluck().get()).toBe(0)
  })
})
