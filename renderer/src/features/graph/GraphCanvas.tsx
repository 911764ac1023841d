import {
  Background,
  ControlButton,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStoreApi,
  type Connection,
  type Edge,
  type NodeChange,
  type XYPosition,
  Position,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { Maximize } from 'lucide-react'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Flow } from '@shared/contract'
import { useApp } from '../../store'
import { useResolvedTheme } from '../../ui/useTheme'
import { CanvasToolbar } from './CanvasToolbar'
import { ConversationNode, type ConversationFlowNode } from './ConversationNode'
import { NodeMenu, type NodeMenuState } from './NodeMenu'
import { FIT_PADDING, NODE_HEIGHT, NODE_WIDTH } from './layout'
import { useFlowLayout } from './useFlowLayout'
import { CanvasIndex } from './canvasWindow'
import { useFitAll, useViewWindow } from './useViewWindow'
import { Welcome } from './Welcome'
import { labelTemplate } from '../../i18n/labelTemplate'

// Module level: a new object per render would remount every node (xyflow's warning).
const nodeTypes = { conversation: ConversationNode }
const noPositions: Record<string, XYPosition> = {}
const fixedSize = {
  width: NODE_WIDTH,
  height: NODE_HEIGHT,
  // Known without measuring: fit-view and edge routing count the cards never rendered too.
  measured: { width: NODE_WIDTH, height: NODE_HEIGHT },
  handles: [
    { type: 'target' as const, position: Position.Top, x: NODE_WIDTH / 2 - 4, y: -4, width: 8, height: 8 },
    {
      type: 'source' as const,
      position: Position.Bottom,
      x: NODE_WIDTH / 2 - 4,
      y: NODE_HEIGHT - 4,
      width: 8,
      height: 8,
    },
  ],
}
/** The minimap draws every node on every pan; past this size it costs more frame time than it helps. */
const MINIMAP_MAX_NODES = 1500
/** Small enough to leave a narrow canvas to the cards (FIT_PADDING keeps them above it). */
const MINIMAP_SIZE = { width: 150, height: 100 }
const fitViewOptions = { padding: FIT_PADDING }

export function GraphCanvas() {
  const { t } = useTranslation()
  const flow = useApp((s) => s.flow)
  return (
    <section className="graph-canvas" aria-label={t('canvas.label')} data-drop-label={t('canvas.dropHere')}>
      {flow ? (
        <ReactFlowProvider>
          <Canvas flow={flow} />
        </ReactFlowProvider>
      ) : (
        <Welcome />
      )}
    </section>
  )
}

function Canvas({ flow }: { flow: Flow }) {
  const { t, i18n } = useTranslation()
  useFlowLayout(flow)
  const positions = useApp((s) => s.positions)
  const selectedId = useApp((s) => s.selectedId)
  const activeIds = useApp((s) => s.activeIds)
  const expandedIds = useApp((s) => s.expandedIds)
  const focus = useApp((s) => s.focus)
  const loading = useApp((s) => s.flowLoading)
  const select = useApp((s) => s.select)
  const revealInTranscript = useApp((s) => s.revealInTranscript)
  const connect = useApp((s) => s.connect)
  const reconnect = useApp((s) => s.reconnect)
  const disconnect = useApp((s) => s.disconnect)
  const setPositions = useApp((s) => s.setPositions)
  const { setCenter, getViewport } = useReactFlow()
  const flowStore = useStoreApi()
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null)
  const [menu, setMenu] = useState<NodeMenuState | null>(null)
  // What React Flow reports between store updates: sizes it measured and positions mid-drag.
  // Drag positions hold only until the store's positions change (the move was saved, or undone).
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({})
  const [drag, setDrag] = useState<{ base: unknown; at: Record<string, XYPosition> }>({ base: null, at: {} })
  const dragAt = drag.base === positions ? drag.at : noPositions
  const nodeLabel = useMemo(() => labelTemplate(t, 'canvas.nodeLabel', ['index']), [t])
  const edgeLabel = useMemo(() => labelTemplate(t, 'canvas.edgeLabel', ['from', 'to']), [t])

  // One object per card, rebuilt only when the flow's shape or layout changes. A drag or a new
  // selection then swaps just the cards it touches: React Flow keeps every other card as it was,
  // which is what keeps dragging smooth in a 10k-node flow.
  const base = useMemo<ConversationFlowNode[]>(
    () =>
      flow.nodes
        .filter((m) => positions[m.id])
        .map((m) => ({
          id: m.id,
          type: 'conversation',
          // Read out as "#3", not as the node's id.
          ariaLabel: nodeLabel({ index: m.index }),
          position: positions[m.id]!,
          data: {},
          ...(measured[m.id] ? { measured: measured[m.id] } : {}),
          // A collapsed card has a fixed size and known handles, so React Flow need not mount
          // it to measure it: only cards in view are ever rendered, even on first load.
          ...(expandedIds.has(m.id) ? {} : fixedSize),
        })),
    [flow, positions, measured, expandedIds, nodeLabel],
  )
  const indexOf = useMemo(() => new Map(flow.nodes.map((m) => [m.id, m.index])), [flow.nodes])
  const allEdges = useMemo<Edge[]>(
    () =>
      flow.connections.map((c) => {
        const id = `${c.from}->${c.to}`
        const onPath = activeIds.has(c.from) && activeIds.has(c.to)
        return {
          id,
          source: c.from,
          target: c.to,
          ariaLabel: edgeLabel({ from: indexOf.get(c.from) ?? '?', to: indexOf.get(c.to) ?? '?' }),
          selected: id === selectedEdge,
          className: onPath ? 'on-path' : undefined,
          animated: onPath,
          // A named branch (seed §9.2) says its name on the connection that starts it.
          ...(c.label ? { label: c.label } : {}),
        }
      }),
    [flow.connections, activeIds, selectedEdge, indexOf, edgeLabel],
  )

  // Only the cards around the view go to React Flow (canvasWindow.ts) once a flow is past the
  // minimap's size: a drag then costs the same in a flow of 50,000 cards as in one of 1,500.
  const byId = useMemo(() => new Map(base.map((n) => [n.id, n])), [base])
  const heightOf = useCallback(
    (id: string) => (expandedIds.has(id) ? (measured[id]?.height ?? NODE_HEIGHT) : NODE_HEIGHT),
    [expandedIds, measured],
  )
  const index = useMemo(() => new CanvasIndex(positions, allEdges, heightOf), [positions, allEdges, heightOf])
  const win = useViewWindow()
  // Counted whole while a big flow's pages come in: the canvas must not show a minimap for the
  // first part read and take it away again.
  const big = (loading?.total ?? base.length) > MINIMAP_MAX_NODES
  const { nodes, edges } = useMemo(() => {
    // The selected card, cards being dragged and expanded ones (tall, and measured for Tidy) always.
    const always = [...Object.keys(dragAt), ...expandedIds, ...(selectedId ? [selectedId] : [])]
    // A flow small enough for the minimap goes to React Flow whole: the minimap draws what it has.
    const shown = !big
      ? { ids: new Set(byId.keys()), edges: allEdges }
      : win
        ? index.inside(win, always)
        : { ids: new Set(always), edges: [] }
    const nodes: ConversationFlowNode[] = []
    for (const id of shown.ids) {
      const n = byId.get(id)
      if (!n) continue
      const at = dragAt[id]
      const selected = id === selectedId
      nodes.push(at || selected ? { ...n, ...(at ? { position: at } : {}), selected } : n)
    }
    // A connection to a card not placed yet (laid out a moment later) waits for it.
    return { nodes, edges: shown.edges.filter((e) => byId.has(e.source) && byId.has(e.target)) }
  }, [allEdges, index, win, byId, dragAt, selectedId, expandedIds, big])
  const fitAll = useFitAll(heightOf)

  useEffect(() => {
    const p = focus && positions[focus.id]
    if (!p) return
    // Animate short hops only: a long animated flight mounts every card it passes over.
    const { x, y, zoom } = getViewport()
    const here = { x: (-x + 400) / zoom, y: (-y + 300) / zoom }
    const far = Math.hypot(p.x - here.x, p.y - here.y) > 2500
    // Full size, or as large as a narrow canvas (beside the transcript) shows a whole card.
    const { width, height } = flowStore.getState()
    const fit = Math.max(0.4, Math.min(1, (width - 32) / NODE_WIDTH))
    // Never animated in a hidden canvas: d3's zoom animation in a box of no size makes NaN.
    const still = far || width === 0 || height === 0
    void setCenter(p.x + NODE_WIDTH / 2, p.y + 120, { zoom: fit, duration: still ? 0 : 250 })
    // Only a new focus request moves the view, not every layout change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus?.seq, positions[focus?.id ?? ''] === undefined])

  const ariaLabelConfig = useMemo(
    () => ({
      'node.a11yDescription.default': t('canvas.a11y.node'),
      'node.a11yDescription.keyboardDisabled': t('canvas.a11y.nodeNoKeys'),
      'edge.a11yDescription.default': t('canvas.a11y.edge'),
      'controls.ariaLabel': t('canvas.a11y.controls'),
      'controls.zoomIn.ariaLabel': t('canvas.a11y.zoomIn'),
      'controls.zoomOut.ariaLabel': t('canvas.a11y.zoomOut'),
      'controls.fitView.ariaLabel': t('canvas.a11y.fitView'),
      'minimap.ariaLabel': t('canvas.a11y.minimap'),
      'handle.ariaLabel': t('canvas.a11y.handle'),
    }),
    [t],
  )
  const dark = useResolvedTheme(useApp((s) => s.settings?.theme)) === 'dark'

  const onNodesChange = useCallback(
    (changes: NodeChange<ConversationFlowNode>[]) => {
      // Selection and deletion belong to the store; only sizes and drags are kept here.
      const sizes: Record<string, { width: number; height: number }> = {}
      const moves: Record<string, XYPosition> = {}
      for (const c of changes) {
        // Collapsed cards have a fixed size: feeding their measurements back would rebuild
        // every node each time panning brings new cards into view.
        if (c.type === 'dimensions' && c.dimensions && expandedIds.has(c.id)) sizes[c.id] = c.dimensions
        if (c.type === 'position' && c.position) moves[c.id] = c.position
      }
      if (Object.keys(sizes).length > 0) setMeasured((m) => ({ ...m, ...sizes }))
      if (Object.keys(moves).length > 0) {
        setDrag((d) => ({ base: positions, at: { ...(d.base === positions ? d.at : {}), ...moves } }))
      }
    },
    [positions, expandedIds],
  )

  const onKeyDown = (e: React.KeyboardEvent) => {
    if ((e.key === 'Delete' || e.key === 'Backspace') && selectedEdge) {
      const [from, to] = selectedEdge.split('->') as [string, string]
      setSelectedEdge(null)
      void disconnect(from, to)
    }
  }

  return (
    <div className="canvas-wrap" onKeyDown={onKeyDown}>
      <ReactFlow<ConversationFlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onNodeClick={(_, n) => {
          setSelectedEdge(null)
          select(n.id)
          revealInTranscript(n.id)
        }}
        onEdgeClick={(_, e) => setSelectedEdge(e.id)}
        onPaneClick={() => {
          setSelectedEdge(null)
          setMenu(null)
        }}
        onNodeContextMenu={(e, n) => {
          e.preventDefault()
          select(n.id)
          setMenu({ nodeId: n.id, x: e.clientX, y: e.clientY })
        }}
        onConnect={(c: Connection) => void connect(c.source, c.target)}
        edgesReconnectable
        onReconnect={(old, c) =>
          void reconnect({ source: old.source, target: old.target }, { source: c.source, target: c.target })
        }
        onNodeDragStop={(_, _node, moved) => void setPositions(moved.map((n) => ({ id: n.id, position: n.position })))}
        deleteKeyCode={null}
        onlyRenderVisibleElements
        minZoom={0.05}
        maxZoom={2}
        defaultViewport={{ x: 40, y: 40, zoom: 1 }}
        proOptions={{ hideAttribution: true }}
        ariaLabelConfig={ariaLabelConfig}
        fitViewOptions={fitViewOptions}
        colorMode={dark ? 'dark' : 'light'}
      >
        <Background gap={24} />
        {!big && (
          <MiniMap
            pannable
            zoomable
            style={MINIMAP_SIZE}
            bgColor={dark ? '#1f1c2c' : undefined}
            nodeColor={dark ? '#4a4468' : undefined}
            maskColor={dark ? 'rgba(10, 8, 20, 0.6)' : undefined}
          />
        )}
        <Controls showInteractive={false} showFitView={false}>
          {/* React Flow's own fit would fit the cards it has, the window: this one fits them all. */}
          <ControlButton
            className="react-flow__controls-fitview"
            onClick={() => fitAll()}
            aria-label={t('canvas.a11y.fitView')}
            title={t('canvas.a11y.fitView')}
          >
            <Maximize aria-hidden />
          </ControlButton>
        </Controls>
      </ReactFlow>
      <CanvasToolbar fitAll={fitAll} />
      {loading && (
        <p className="canvas-loading" role="status">
          {t('canvas.reading', {
            loaded: loading.loaded.toLocaleString(i18n.language),
            total: loading.total.toLocaleString(i18n.language),
          })}
        </p>
      )}
      {menu && <NodeMenu menu={menu} onClose={() => setMenu(null)} />}
    </div>
  )
}
