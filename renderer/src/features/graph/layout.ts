import type { Flow, Position } from '@shared/contract'

/** Card size used for layout; the card itself may be a little shorter when collapsed. */
export const NODE_WIDTH = 320
export const NODE_HEIGHT = 190
const GAP_X = 40
const GAP_Y = 70

export interface LayoutRequest {
  nodes: string[]
  edges: Array<{ from: string; to: string }>
}
export type LayoutResult = Record<string, Position>

/**
 * Lays out a DAG top to bottom with dagre, in a Web Worker: a 10k-node flow takes seconds
 * and must not freeze the canvas meanwhile.
 */
export function layoutInWorker(request: LayoutRequest): Promise<LayoutResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' })
    worker.onmessage = (e: MessageEvent<LayoutResult>) => {
      resolve(e.data)
      worker.terminate()
    }
    worker.onerror = (e) => {
      reject(new Error(e.message))
      worker.terminate()
    }
    worker.postMessage(request)
  })
}

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

export const layoutSpacing = { GAP_X, GAP_Y }
