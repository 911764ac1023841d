import { Handle, Position, type Node as FlowNode, type NodeProps } from '@xyflow/react'
import { memo } from 'react'
import { useTranslation } from 'react-i18next'

export type EntityFlowNode = FlowNode<
  {
    name: string
    etype: string
    units: number
    tier: number
    /** Set while the entities view is searched: found, or dimmed as not found. */
    search?: 'match' | 'dim'
  },
  'entity'
>

/**
 * One entity in the graph: name, type badge, memory count (spelled out for screen readers).
 * It is a button so the keyboard reaches it too; its click bubbles to the graph's
 * onNodeClick, which lists the entity's memories. The handles are invisible anchors:
 * relations are drawn along the routes the layout chose, and nothing can be connected.
 */
export const EntityNode = memo(function EntityNode({ data }: NodeProps<EntityFlowNode>) {
  const { t } = useTranslation()
  const classes = ['entity-node', `tier-${data.tier}`, data.search].filter(Boolean).join(' ')
  return (
    <button
      type="button"
      className={classes}
      data-testid="entity-node"
      title={t('memory.graphOpenUnits', { name: data.name })}
      aria-label={`${data.name}, ${data.etype}, ${t('memory.entityUnits', { count: data.units })}`}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <span className="entity-node-name">{data.name}</span>
      <span className="entity-node-meta">
        <span className={`memory-badge etype-${data.etype}`}>{data.etype}</span>
        <span className="entity-node-units">{data.units}</span>
      </span>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </button>
  )
})
