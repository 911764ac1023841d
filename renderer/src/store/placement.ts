import type { Flow, Position } from '@shared/contract'

/** Card size used for layout; the card itself may be a little shorter when collapsed. */
export const NODE_WIDTH = 320
export const NODE_HEIGHT = 190
/** The space between cards side by side (X) and between rows (Y). */
export const GAP_X = 40
export const GAP_Y = 70

/**
 * Where a new child goes without a full layout: below its parent, right of the siblings
 * already there. Cheap, so sending never waits for dagre.
 */
export function placeChild(flow: Flow, positions: Record<string, Position>, parentIds: readonly string[]): Position {
  const parents = parentIds.map((id) => positions[id]).filter((p): p is Position => p !== undefined)
  if (parents.length === 0) {
    const roots = Object.values(positions)
    const right = roots.length > 0 ? Math.max(...roots.map((p) => p.x)) + NODE_WIDTH + GAP_X * 2 : 0
    return { x: right, y: 0 }
  }
  const x = Math.min(...parents.map((p) => p.x))
  const y = Math.max(...parents.map((p) => p.y)) + NODE_HEIGHT + GAP_Y
  const siblings = flow.connections.filter((c) => parentIds.includes(c.from)).map((c) => positions[c.to])
  const taken = siblings.filter((p): p is Position => p !== undefined && Math.abs(p.y - y) < NODE_HEIGHT)
  const freeX = taken.length > 0 ? Math.max(x, ...taken.map((p) => p.x + NODE_WIDTH + GAP_X)) : x
  return { x: freeX, y }
}

/** Where a new sibling of a node goes (a retry, an edited prompt): as a child of the same parents. */
export function placeSibling(flow: Flow, positions: Record<string, Position>, nodeId: string): Position {
  const parents = flow.connections.filter((c) => c.to === nodeId).map((c) => c.from)
  return placeChild(flow, positions, parents)
}
