import { describe, expect, it } from 'vitest'
import { CELL, CanvasIndex, boundsOf, nextWindow, viewRect } from './canvasWindow'
import { NODE_HEIGHT, NODE_WIDTH } from './layout'

const edge = (source: string, target: string) => ({ id: `${source}->${target}`, source, target })

/** A column of cards 300 apart, a → b → c …, and one card far to the right linked to the first. */
function column(count: number) {
  const positions: Record<string, { x: number; y: number }> = {}
  const edges = []
  for (let i = 0; i < count; i++) {
    positions[`n${i}`] = { x: 0, y: i * 300 }
    if (i > 0) edges.push(edge(`n${i - 1}`, `n${i}`))
  }
  positions.far = { x: 20 * CELL, y: 0 }
  edges.push(edge('n0', 'far'))
  return { positions, edges }
}

describe('the cards given to React Flow', () => {
  it('are those around the view, with the connections touching them and both their ends', () => {
    const { positions, edges } = column(1000)
    const index = new CanvasIndex(positions, edges)
    const { ids, edges: shown } = index.inside({ x0: -100, y0: 30_000, x1: 1000, y1: 31_000 }, [])
    // n100 (y 30,000) to n103 (y 30,900) are in it; n99 and n104 are the other ends of their connections.
    expect([...ids].sort()).toEqual(['n100', 'n101', 'n102', 'n103', 'n104', 'n99'].sort())
    expect(shown.map((e) => e.id).sort()).toEqual(
      ['n99->n100', 'n100->n101', 'n101->n102', 'n102->n103', 'n103->n104'].sort(),
    )
    // 1,001 cards, and a handful handed over.
    expect(ids.size).toBeLessThan(10)
  })

  it('include a long connection crossing the window whose ends both lie outside it', () => {
    const { positions, edges } = column(10)
    const index = new CanvasIndex(positions, edges)
    // Between the column (x 0) and the far card (x 20 cells), at the height of the first card.
    const { ids, edges: shown } = index.inside({ x0: 8 * CELL, y0: 0, x1: 9 * CELL, y1: 200 }, [])
    expect(shown.map((e) => e.id)).toEqual(['n0->far'])
    expect([...ids].sort()).toEqual(['far', 'n0'])
    // Below it, nothing.
    expect(index.inside({ x0: 8 * CELL, y0: 5000, x1: 9 * CELL, y1: 5200 }, []).ids.size).toBe(0)
  })

  it('always include the cards asked for (the selected one, one being dragged) wherever they are', () => {
    const { positions, edges } = column(100)
    const { ids } = new CanvasIndex(positions, edges).inside({ x0: 0, y0: 0, x1: 100, y1: 100 }, ['n90'])
    expect(ids.has('n90')).toBe(true)
    expect(ids.has('n89') && ids.has('n91')).toBe(true) // its connections' other ends
  })

  it('count a tall expanded card by its height', () => {
    const positions = { tall: { x: 0, y: 0 } }
    const short = new CanvasIndex(positions, [])
    const tall = new CanvasIndex(positions, [], () => 900)
    const below = { x0: 0, y0: 600, x1: 100, y1: 700 }
    expect(short.inside(below, []).ids.size).toBe(0)
    expect(tall.inside(below, []).ids.has('tall')).toBe(true)
  })
})

describe('the window', () => {
  it('stays while the view pans inside it, and moves once the view leaves it', () => {
    const first = nextWindow(viewRect([0, 0, 1], 1400, 900), null)
    expect(first.x0).toBeLessThan(-1000)
    expect(nextWindow(viewRect([-500, -300, 1], 1400, 900), first)).toBe(first)
    const moved = nextWindow(viewRect([-4000, 0, 1], 1400, 900), first)
    expect(moved).not.toBe(first)
    expect(moved.x0).toBeLessThanOrEqual(4000)
    expect(moved.x1).toBeGreaterThanOrEqual(5400)
  })

  it('reads the view from React Flow’s transform at any zoom', () => {
    expect(viewRect([100, 50, 0.5], 1000, 800)).toEqual({ x0: -200, y0: -100, x1: 1800, y1: 1500 })
  })

  it('fits around every card, the tall ones by their height', () => {
    const positions = { a: { x: -50, y: 10 }, b: { x: 400, y: 900 } }
    expect(boundsOf(positions)).toEqual({ x0: -50, y0: 10, x1: 400 + NODE_WIDTH, y1: 900 + NODE_HEIGHT })
    expect(boundsOf(positions, (id) => (id === 'b' ? 1000 : NODE_HEIGHT))!.y1).toBe(1900)
    expect(boundsOf({})).toBeNull()
  })
})
