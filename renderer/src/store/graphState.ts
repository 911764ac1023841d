import type { ContextPreview, Flow, FlowMember, FlowPatch, FlowSummary, Node, Position } from '@shared/contract'

// What the graph slice holds and offers (its implementation: graphSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface UndoState {
  can_undo: boolean
  can_redo: boolean
  undo_label: string | null
  redo_label: string | null
}

export interface GraphSlice {
  flows: FlowSummary[]
  flowId: string | null
  /** The open flow's shape: members (positions, pins) and connections. */
  flow: Flow | null
  /** The version of the open flow the store holds (`flow_changed`); null while none is open. */
  flowVersion: number | null
  /**
   * Content of the open flow's nodes, by id. Node cards select their own entry. A big flow
   * holds only what was shown so far: cards ask for theirs with `wantContent`.
   */
  nodes: Record<string, Node>
  /** Asks the host for these nodes' content, unless held or asked already (useNodeContent). */
  wantContent(ids: readonly string[]): void
  /** A big flow's members still being read after its first part was shown; null once whole. */
  flowLoading: { loaded: number; total: number } | null
  selectedId: string | null
  /** Ids on the active path root → selected node, for highlighting. */
  activeIds: ReadonlySet<string>
  /** The open flow's members by node id (index, position, pin). Unchanged members keep their identity. */
  members: Record<string, FlowMember>
  /** Cards the user expanded to show their whole text (the others have a fixed size). */
  expandedIds: ReadonlySet<string>
  toggleExpanded(id: string): void
  /** Node ids that have at least one child in the open flow. */
  parentIds: ReadonlySet<string>
  /** Merge nodes (more than one parent) and their parents' indexes, so the card can say what it joins. */
  merges: Readonly<Record<string, string>>
  undo: UndoState
  context: ContextPreview | null
  /** Where each node sits on the canvas: its stored position, else the automatic layout's. */
  positions: Record<string, Position>
  /** Bumped to ask the canvas to centre on a node (search results, new replies). */
  focus: { id: string; seq: number } | null
  setLayoutPositions(positions: Record<string, Position>): void
  focusNode(id: string): void

  loadFlows(): Promise<void>
  /** Opens a flow on its newest turn, or on `at` (a link to a message) when it is one of its nodes. */
  openFlow(id: string | null, at?: string): Promise<void>
  /** A new conversation called `placeholder` until its first prompt names it; opened at once. */
  createFlow(placeholder: string): Promise<void>
  renameFlow(id: string, name: string): Promise<boolean>
  setFlowPinned(id: string, pinned: boolean): Promise<void>
  /** Deletes a conversation with an Undo on the toast (the host keeps it restorable for a while). */
  deleteFlow(id: string): Promise<void>
  restoreFlow(id: string): Promise<void>
  select(id: string | null): void
  connect(sourceId: string, targetId: string): Promise<void>
  reconnect(edge: { source: string; target: string }, next: { source: string; target: string }): Promise<void>
  disconnect(sourceId: string, targetId: string): Promise<void>
  deleteNode(id: string, mode: 'reattach' | 'subtree'): Promise<void>
  setPinned(id: string, pinned: boolean): Promise<void>
  setPositions(positions: Array<{ id: string; position: Position | null }>): Promise<void>
  undoEdit(): Promise<void>
  redoEdit(): Promise<void>
  previewContext(prompt: string): Promise<void>
  applyFlow(flow: Flow): void
  /** One `flow_changed`: applied in place when it follows the version held, else the open flow is read again once. */
  applyFlowPatch(patch: FlowPatch): void
  upsertNode(node: Node, flowId?: string): void
}
