import type { XYPosition } from '@xyflow/react'
import { NODE_HEIGHT, NODE_WIDTH } from './layout'

// React Flow does work over every node and connection it is given on every change: adopting the
// nodes, finding the visible ones, testing every connection for visibility. Given 50,000 cards,
// each frame of a drag cost ~100 ms and opening the flow seconds. The canvas gives it only the
// cards around the view (a window three views wide, moved when the view leaves it) and the
// connections that touch them; a spatial grid of positions finds those without a pass over all.

/** A rectangle in flow coordinates. */
export interface Rect {
  x0: number
  y0: number
  x1: number
  y1: number
}

/** Side of a grid cell, in flow units: a few cards across. */
export const CELL = 1024

/** A connection longer than this in x or y may cross the window with both ends outside it. */
const LONG = 2 * CELL

const cellKey = (cx: number, cy: number) => `${cx},${cy}`

/** Positions by grid cell, and the connections too long to be found by their ends. */
export class CanvasIndex<E extends { source: string; target: string }> {
  private readonly cells = new Map<string, string[]>()
  private readonly edgesOf = new Map<string, E[]>()
  private readonly long: E[] = []

  constructor(
    private readonly positions: Readonly<Record<string, XYPosition>>,
    edges: readonly E[],
    private readonly heightOf: (id: string) => number = () => NODE_HEIGHT,
  ) {
    for (const [id, p] of Object.entries(positions)) {
      const key = cellKey(Math.floor(p.x / CELL), Math.floor(p.y / CELL))
      const list = this.cells.get(key)
      if (list) list.push(id)
      else this.cells.set(key, [id])
    }
    for (const e of edges) {
      for (const end of [e.source, e.target]) {
        const list = this.edgesOf.get(end)
        if (list) list.push(e)
        else this.edgesOf.set(end, [e])
      }
      const a = positions[e.source]
      const b = positions[e.target]
      if (a && b && (Math.abs(a.x - b.x) > LONG || Math.abs(a.y - b.y) > LONG)) this.long.push(e)
    }
  }

  /**
   * The cards in a window and the connections to draw there: every connection touching one of
   * them, and the long ones crossing it. Both ends of each connection are among the cards (React
   * Flow draws a connection only between cards it has), and so is every id in `always`.
   */
  inside(win: Rect, always: Iterable<string>): { ids: Set<string>; edges: E[] } {
    const ids = new Set<string>()
    // A card is found in the cell of its top-left corner: look one cell up and left too.
    for (let cx = Math.floor(win.x0 / CELL) - 1; cx <= Math.floor(win.x1 / CELL); cx++)
      for (let cy = Math.floor(win.y0 / CELL) - 1; cy <= Math.floor(win.y1 / CELL); cy++)
        for (const id of this.cells.get(cellKey(cx, cy)) ?? []) {
          const p = this.positions[id]!
          if (p.x <= win.x1 && p.x + NODE_WIDTH >= win.x0 && p.y <= win.y1 && p.y + this.heightOf(id) >= win.y0)
            ids.add(id)
        }
    for (const id of always) if (this.positions[id]) ids.add(id)
    const edges = new Set<E>()
    for (const id of ids) for (const e of this.edgesOf.get(id) ?? []) edges.add(e)
    for (const e of this.long) if (crosses(this.positions[e.source]!, this.positions[e.target]!, win)) edges.add(e)
    for (const e of edges) {
      ids.add(e.source)
      ids.add(e.target)
    }
    return { ids, edges: [...edges] }
  }
}

/** One rectangle around every card; null when there is none. */
export function boundsOf(
  positions: Readonly<Record<string, XYPosition>>,
  heightOf: (id: string) => number = () => NODE_HEIGHT,
): Rect | null {
  let box: Rect | null = null
  for (const [id, p] of Object.entries(positions)) {
    const x1 = p.x + NODE_WIDTH
    const y1 = p.y + heightOf(id)
    box = box
      ? { x0: Math.min(box.x0, p.x), y0: Math.min(box.y0, p.y), x1: Math.max(box.x1, x1), y1: Math.max(box.y1, y1) }
      : { x0: p.x, y0: p.y, x1, y1 }
  }
  return box
}

/** Whether the box around a connection's two ends meets the window. */
function crosses(a: XYPosition, b: XYPosition, win: Rect): boolean {
  return (
    Math.min(a.x, b.x) <= win.x1 &&
    Math.max(a.x, b.x) + NODE_WIDTH >= win.x0 &&
    Math.min(a.y, b.y) <= win.y1 &&
    Math.max(a.y, b.y) + NODE_HEIGHT >= win.y0
  )
}

/** What the canvas shows, in flow coordinates, for React Flow's transform and size. */
export function viewRect(transform: readonly [number, number, number], width: number, height: number): Rect {
  const [tx, ty, zoom] = transform
  return { x0: -tx / zoom, y0: -ty / zoom, x1: (width - tx) / zoom, y1: (height - ty) / zoom }
}

/**
 * The window for a view: the view and as much again on every side (two cells at least), so a
 * pan moves it only once the view has crossed a whole view's width of cards already given.
 * Kept while the view stays inside it.
 */
export function nextWindow(view: Rect, current: Rect | null): Rect {
  if (current && view.x0 >= current.x0 && view.y0 >= current.y0 && view.x1 <= current.x1 && view.y1 <= current.y1)
    return current
  const dx = Math.max(view.x1 - view.x0, LONG)
  const dy = Math.max(view.y1 - view.y0, LONG)
  return { x0: view.x0 - dx, y0: view.y0 - dy, x1: view.x1 + dx, y1: view.y1 + dy }
}
