import { BaseEdge, EdgeLabelRenderer, type Edge, type EdgeProps } from '@xyflow/react'
import { memo } from 'react'
import { routePath, type Point } from './entityGraphLayout'

export type RelationFlowEdge = Edge<
  {
    rel: string
    /** For the label's tooltip: "Pepper → lives_in → Kyoto". */
    from: string
    to: string
    points: Point[]
    label: Point
    dim?: boolean
  },
  'relation'
>

/**
 * A relation drawn along the route the layout chose (React Flow's own paths would draw
 * parallel relations on top of each other), labelled with its type where the layout kept room.
 */
export const RelationEdge = memo(function RelationEdge({ data, markerEnd, style }: EdgeProps<RelationFlowEdge>) {
  if (!data) return null
  return (
    <>
      <BaseEdge path={routePath(data.points)} markerEnd={markerEnd} style={style} />
      <EdgeLabelRenderer>
        <div
          className={`entity-edge-label${data.dim ? ' dim' : ''}`}
          data-testid="entity-edge-label"
          title={`${data.from} → ${data.rel} → ${data.to}`}
          style={{ transform: `translate(-50%, -50%) translate(${data.label.x}px, ${data.label.y}px)` }}
        >
          {data.rel}
        </div>
      </EdgeLabelRenderer>
    </>
  )
})
