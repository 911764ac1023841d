import type { Position } from '@shared/contract'
import { GAP_X, GAP_Y, NODE_HEIGHT, NODE_WIDTH } from '../../store/placement'

// The card's size lives with where new cards are placed (the store places them); the canvas reads it here.
export { NODE_HEIGHT, NODE_WIDTH }

/** Fitting the view leaves the bottom strip to the zoom controls and the minimap, so no card sits under them. */
export const FIT_PADDING = { top: '24px', right: '24px', bottom: '132px', left: '24px' } as const

export interface LayoutRequest {
  nodes: string[]
  edges: Array<{ from: string; to: string }>
  /** Cards taller than NODE_HEIGHT (expanded ones), as measured on the canvas: laid out at their height. */
  heights?: Record<string, number>
}

/** A card's height for layout: its measured height when it is taller than the fixed one. */
export function layoutHeight(request: LayoutRequest, id: string): number {
  return Math.max(NODE_HEIGHT, request.heights?.[id] ?? 0)
}
export type LayoutResult = Record<string, Position>

/**
 * Lays out a DAG top to bottom with dagre, in a Web Worker: a 10k-node flow takes seconds
 * and must not freeze the canvas meanwhile.
 */
export function layoutInWorker(request: LayoutRequest): Promise<LayoutResult> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' })
    worker.onmessage = (e: MessageEvent<LayoutResult>) => {
      resolve(e.data)
      worker.terminate()
    }
    worker.onerror = () => {
      // Never leave nodes unplaced: lay out on this thread instead (the layered layout is fast).
      resolve(layeredLayout(request))
      worker.terminate()
    }
    worker.postMessage(request)
  })
}

export const layoutSpacing = { GAP_X, GAP_Y }

/**
 * A plain layered layout: each node one row below its deepest parent, as far left as its
 * parents allow. Linear time and no recursion, so it copes with flows dagre cannot (dagre's
 * recursion overflows a worker's stack past a couple of thousand nodes).
 */
export function layeredLayout(request: LayoutRequest): LayoutResult {
  const { nodes, edges } = request
  const parents = new Map<string, string[]>()
  const children = new Map<string, string[]>()
  const indegree = new Map<string, number>(nodes.map((id) => [id, 0]))
  for (const { from, to } of edges) {
    if (!indegree.has(from) || !indegree.has(to)) continue
    parents.set(to, [...(parents.get(to) ?? []), from])
    children.set(from, [...(children.get(from) ?? []), to])
    indegree.set(to, indegree.get(to)! + 1)
  }
  const queue = nodes.filter((id) => indegree.get(id) === 0)
  const rank = new Map<string, number>()
  const slot = new Map<string, number>()
  const nextFree = new Map<number, number>()
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!
    const ps = parents.get(id) ?? []
    const r = ps.length === 0 ? 0 : Math.max(...ps.map((p) => rank.get(p)!)) + 1
    const wanted = ps.length === 0 ? 0 : Math.min(...ps.map((p) => slot.get(p)!))
    const s = Math.max(wanted, nextFree.get(r) ?? 0)
    rank.set(id, r)
    slot.set(id, s)
    nextFree.set(r, s + 1)
    for (const c of children.get(id) ?? []) {
      const left = indegree.get(c)! - 1
      indegree.set(c, left)
      if (left === 0) queue.push(c)
    }
  }
  // Each row as tall as its tallest card, so an expanded card never reaches into the row below.
  const rowHeight: number[] = []
  for (const id of nodes) {
    const r = rank.get(id) ?? 0
    rowHeight[r] = Math.max(rowHeight[r] ?? NODE_HEIGHT, layoutHeight(request, id))
  }
  const rowTop: number[] = []
  for (let r = 0, y = 0; r < rowHeight.length; r++) {
    rowTop[r] = y
    y += (rowHeight[r] ?? NODE_HEIGHT) + GAP_Y
  }
  const result: LayoutResult = {}
  for (const id of nodes) {
    // A node left unplaced would sit on a cycle, which the graph refuses; park it out of the way.
    result[id] = { x: (slot.get(id) ?? -1) * (NODE_WIDTH + GAP_X), y: rowTop[rank.get(id) ?? 0] ?? 0 }
  }
  return result
}
