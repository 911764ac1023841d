import { describe, expect, it, vi } from 'vitest'
import { FLOW_OPEN_WHOLE_MAX, type Connection, type FlowMember } from '@shared/contract'
import { generateFlow } from '../../bench/graphFixture'
import { useGraph } from '../../tests/support/graphFixture'

// A window opens a big flow around its newest turn and reads the rest in pages: what it gets
// first must be the part it shows, and the pages must add up to exactly the flow read whole.

const setup = useGraph()
const VIEW = { width: 3500, height: 2250 }
const BIG = FLOW_OPEN_WHOLE_MAX + 500

const key = (c: Connection) => `${c.from}>${c.to}>${c.label ?? ''}`

describe('opening a flow', () => {
  it('sends a big flow around its newest turn first: nearby cards with their content, and both cards of every line drawn', () => {
    const { graph } = setup()
    const flow = generateFlow(graph, BIG, { name: 'long', positioned: true })
    const view = graph.openView(flow.id, VIEW)
    const newest = flow.nodeIds.at(-1)!
    expect(view.complete).toBe(false)
    expect(view.total).toBe(BIG)
    expect(view.focus_id).toBe(newest)
    const ids = new Set(view.flow.nodes.map((m) => m.id))
    expect(ids.has(newest)).toBe(true)
    // A screenful around the newest turn, not the flow.
    expect(ids.size).toBeGreaterThan(10)
    expect(ids.size).toBeLessThan(200)
    const at = view.flow.nodes.find((m) => m.id === newest)!.position!
    const near = graph.store.members(flow.id).filter((m) => Math.abs(m.position!.y - at.y) <= VIEW.height / 2)
    for (const m of near) expect(ids.has(m.id), `card #${m.index} in view`).toBe(true)
    for (const c of view.flow.connections) expect(ids.has(c.from) && ids.has(c.to)).toBe(true)
    expect(new Set(view.nodes.map((n) => n.id))).toEqual(ids)
    expect(view.nodes.find((n) => n.id === newest)!.prompt).toContain(`Turn ${BIG - 1}`)
  })

  it('reads the rest in pages that add up to the flow read whole, each member and connection once', () => {
    const { graph } = setup()
    const flow = generateFlow(graph, BIG, { name: 'long', positioned: true })
    const whole = graph.loadFlow(flow.id).flow
    const members: FlowMember[] = []
    const connections: Connection[] = []
    let pages = 0
    for (let before: number | null = null; ; pages++) {
      const page = graph.flowPage(flow.id, before, 700)
      members.push(...page.members)
      connections.push(...page.connections)
      if (page.next === null) break
      before = page.next
    }
    expect(pages).toBe(Math.floor(BIG / 700))
    expect(members.map((m) => m.index)).toEqual(whole.nodes.map((m) => m.index).reverse())
    expect(members.sort((a, b) => a.index - b.index)).toEqual(whole.nodes)
    expect(connections.map(key).sort()).toEqual(whole.connections.map(key).sort())
  })

  it('sends a small flow, or one the canvas must lay out itself, whole with its newest turn', () => {
    const { graph, flow, add } = setup()
    const small = flow('small')
    const a = add(small, 'a')
    const b = add(small, 'b', [a])
    const view = graph.openView(small, VIEW)
    expect(view).toMatchObject({ complete: true, total: 2, focus_id: b })
    expect(view.flow).toEqual(graph.loadFlow(small).flow)
    expect(view.nodes.map((n) => n.prompt)).toEqual(['a', 'b'])

    const unplaced = generateFlow(graph, BIG, { name: 'never laid out', positioned: false })
    const laidOut = graph.openView(unplaced.id, VIEW)
    expect(laidOut.complete).toBe(true)
    expect(laidOut.flow.nodes).toHaveLength(BIG)
  })

  it('opens around the nearest placed turn above a newest turn written without a place (by the local API)', () => {
    const { graph, add } = setup()
    const flow = generateFlow(graph, BIG, { name: 'long', positioned: true })
    const last = flow.nodeIds.at(-1)!
    vi.setSystemTime(new Date('2027-01-01T00:00:00Z')) // after the generated turns
    const fromApi = add(flow.id, 'from a script', [last])
    const later = add(flow.id, 'and another', [fromApi])
    const view = graph.openView(flow.id, VIEW)
    expect(view.focus_id).toBe(later)
    const ids = view.flow.nodes.map((m) => m.id)
    // The unplaced turns, the placed parent they hang from and the cards around it.
    expect(ids).toEqual(expect.arrayContaining([later, fromApi, last]))
    expect(ids.length).toBeGreaterThan(10)
    expect(view.flow.nodes.find((m) => m.id === later)!.position).toBeNull()
  })

  it('opens around a message a link names, far from the newest turn, or around the newest when the link names none of its own', () => {
    const { graph } = setup()
    const flow = generateFlow(graph, BIG, { name: 'long', positioned: true })
    const linked = flow.nodeIds[5]!
    const view = graph.openView(flow.id, VIEW, linked)
    expect(view.focus_id).toBe(linked)
    const ids = new Set(view.flow.nodes.map((m) => m.id))
    expect(ids.has(linked)).toBe(true)
    expect(ids.has(flow.nodeIds.at(-1)!)).toBe(false)
    expect(view.nodes.some((n) => n.id === linked)).toBe(true)
    expect(graph.openView(flow.id, VIEW, '00000000-0000-4000-8000-000000000002').focus_id).toBe(flow.nodeIds.at(-1))
  })

  it('answers the content of the cards asked for, leaving out ids that name no node, and refuses an unknown flow', () => {
    const { graph, flow, add } = setup()
    const f = flow()
    const a = add(f, 'first')
    const nodes = graph.nodes([a, '00000000-0000-4000-8000-000000000000'])
    expect(nodes.map((n) => n.prompt)).toEqual(['first'])
    expect(() => graph.openView('00000000-0000-4000-8000-000000000001', VIEW)).toThrow(/not found/)
    expect(() => graph.flowPage('00000000-0000-4000-8000-000000000001', null, 10)).toThrow(/not found/)
  })
})
