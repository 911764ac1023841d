import {
  Background,
  Controls,
  MarkerType,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type NodeHandle,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useDeferredValue, useEffect, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import type { MemoryEntities } from '../../store/memoryState'
import { EntityNode, type EntityFlowNode } from './EntityNode'
import { RelationEdge, type RelationFlowEdge } from './RelationEdge'
import { ENTITY_GRAPH_CAP, edgeWidth, entityMatches, layoutEntityGraph } from './entityGraphLayout'

// Module level: a new object per render would remount every node (xyflow's warning).
const nodeTypes = { entity: EntityNode }
const edgeTypes = { relation: RelationEdge }

/** The persona's entities and their relations as a node-link diagram; read-only, zoom and pan. */
export function EntityGraph({ data, query }: { data: MemoryEntities; query: string }) {
  const { t } = useTranslation()
  const q = useDeferredValue(query.trim())
  return (
    <div className="entity-graph-view">
      {data.entities.length > ENTITY_GRAPH_CAP && (
        <p className="hint">{t('memory.graphShowing', { shown: ENTITY_GRAPH_CAP, total: data.entities.length })}</p>
      )}
      {data.entities.length === 0 ? (
        <p className="hint">{t('memory.graphEmpty')}</p>
      ) : (
        <div className="entity-graph" role="figure" aria-label={t('memory.graphLabel')}>
          <ReactFlowProvider>
            <Diagram data={data} query={q} />
          </ReactFlowProvider>
        </div>
      )}
    </div>
  )
}

function Diagram({ data, query }: { data: MemoryEntities; query: string }) {
  const { fitView } = useReactFlow()
  const setFilter = useApp((s) => s.setMemoryFilter)
  const setView = useApp((s) => s.setMemoryView)
  const matched = useMemo(
    () => (query ? new Set(data.entities.filter((e) => entityMatches(e, query)).map((e) => e.id)) : null),
    [data, query],
  )
  // Entities found by the search stay in the graph even past the cap. Below the cap every
  // entity is drawn anyway, so typing does not lay the graph out again.
  const keepKey = matched && data.entities.length > ENTITY_GRAPH_CAP ? [...matched].join(',') : ''
  const layout = useMemo(
    () => layoutEntityGraph(data, { keep: new Set(keepKey ? keepKey.split(',').map(Number) : []) }),
    [data, keepKey],
  )

  const nodes = useMemo<EntityFlowNode[]>(
    () =>
      layout.nodes.map((n) => ({
        id: n.id,
        type: 'entity',
        position: n.position,
        data: {
          name: n.entity.name,
          etype: n.entity.etype,
          units: n.entity.unit_count,
          tier: n.tier,
          ...(matched ? { search: matched.has(n.entity.id) ? 'match' : 'dim' } : {}),
        },
        width: n.width,
        height: n.height,
        // Sizes and anchors are known from the layout: no measuring before fit-view and edges.
        measured: { width: n.width, height: n.height },
        handles: anchors(n.width, n.height),
      })),
    [layout, matched],
  )
  const names = useMemo(() => new Map(layout.nodes.map((n) => [n.id, n.entity.name])), [layout])
  const edges = useMemo<RelationFlowEdge[]>(
    () =>
      layout.edges.map((e) => {
        const dim = matched !== null && !matched.has(Number(e.source)) && !matched.has(Number(e.target))
        return {
          id: e.id,
          type: 'relation',
          source: e.source,
          target: e.target,
          data: {
            rel: e.rel,
            from: names.get(e.source) ?? '',
            to: names.get(e.target) ?? '',
            points: e.points,
            label: e.label,
            dim,
          },
          className: dim ? 'dim' : undefined,
          style: { strokeWidth: edgeWidth(e.weight) },
          markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14, markerUnits: 'userSpaceOnUse' },
        }
      }),
    [layout, names, matched],
  )

  // Fit when other entities arrive (a job finished) or the search finds others, not on every
  // refresh of the same ones. A search brings what it found into view; nothing found, or the
  // search cleared, shows everything again.
  const shape = layout.nodes.map((n) => n.id).join(',')
  const foundKey = matched
    ? layout.nodes
        .filter((n) => matched.has(n.entity.id))
        .map((n) => n.id)
        .join(',')
    : ''
  useEffect(() => {
    const nodes = foundKey ? foundKey.split(',').map((id) => ({ id })) : undefined
    void fitView({ nodes, padding: 0.1, maxZoom: 1.2, duration: 200 })
  }, [shape, foundKey, fitView])

  return (
    <ReactFlow<EntityFlowNode, RelationFlowEdge>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      // Exactly what the list's "N memories" does: the memories about this entity.
      onNodeClick={(_, n) => {
        setView('units')
        void setFilter({ entityId: Number(n.id) })
      }}
      // Read-only: the graph is what memory extracted; it is edited through memories, not here.
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      edgesFocusable={false}
      // The node is a button: one tab stop per entity, not two.
      nodesFocusable={false}
      deleteKeyCode={null}
      fitView
      fitViewOptions={{ padding: 0.1, maxZoom: 1.2 }}
      minZoom={0.1}
      maxZoom={2}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={20} />
      <Controls showInteractive={false} />
    </ReactFlow>
  )
}

/** Invisible anchors at the top and bottom centre, matching the handles EntityNode renders. */
function anchors(width: number, height: number): NodeHandle[] {
  return [
    { type: 'target', position: Position.Top, x: width / 2 - 1, y: 0, width: 2, height: 2 },
    { type: 'source', position: Position.Bottom, x: width / 2 - 1, y: height - 2, width: 2, height: 2 },
  ]
}
