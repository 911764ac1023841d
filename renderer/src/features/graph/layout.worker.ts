import dagre from '@dagrejs/dagre'
import { NODE_WIDTH, layeredLayout, layoutHeight, layoutSpacing, type LayoutRequest, type LayoutResult } from './layout'

/** dagre draws the nicer picture but is slow and recursive: beyond this, the layered layout. */
const DAGRE_MAX_NODES = 1000

self.onmessage = (e: MessageEvent<LayoutRequest>) => {
  postMessage(e.data.nodes.length <= DAGRE_MAX_NODES ? dagreOrLayered(e.data) : layeredLayout(e.data))
}

function dagreOrLayered(request: LayoutRequest): LayoutResult {
  try {
    const g = new dagre.graphlib.Graph()
    g.setGraph({ rankdir: 'TB', nodesep: layoutSpacing.GAP_X, ranksep: layoutSpacing.GAP_Y })
    g.setDefaultEdgeLabel(() => ({}))
    for (const id of request.nodes) g.setNode(id, { width: NODE_WIDTH, height: layoutHeight(request, id) })
    for (const { from, to } of request.edges) g.setEdge(from, to)
    dagre.layout(g)
    const result: LayoutResult = {}
    for (const id of request.nodes) {
      const n = g.node(id)
      // dagre gives centres; React Flow positions are top-left corners.
      result[id] = { x: n.x - NODE_WIDTH / 2, y: n.y - layoutHeight(request, id) / 2 }
    }
    return result
  } catch {
    return layeredLayout(request) // e.g. a stack overflow on a very deep chain
  }
}
