import dagre from '@dagrejs/dagre'
import { NODE_HEIGHT, NODE_WIDTH, layoutSpacing, type LayoutRequest, type LayoutResult } from './layout'

self.onmessage = (e: MessageEvent<LayoutRequest>) => {
  const g = new dagre.graphlib.Graph()
  g.setGraph({ rankdir: 'TB', nodesep: layoutSpacing.GAP_X, ranksep: layoutSpacing.GAP_Y })
  g.setDefaultEdgeLabel(() => ({}))
  for (const id of e.data.nodes) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT })
  for (const { from, to } of e.data.edges) g.setEdge(from, to)
  dagre.layout(g)
  const result: LayoutResult = {}
  for (const id of e.data.nodes) {
    const n = g.node(id)
    // dagre gives centres; React Flow positions are top-left corners.
    result[id] = { x: n.x - NODE_WIDTH / 2, y: n.y - NODE_HEIGHT / 2 }
  }
  postMessage(result)
}
