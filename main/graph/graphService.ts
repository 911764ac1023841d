import { randomUUID } from 'node:crypto'
import {
  DEFAULT_FLOW_NAME,
  FLOW_OPEN_WHOLE_MAX,
  type ContextPreview,
  type CastMember,
  type Connection,
  type Flow,
  type FlowGraph,
  type FlowPage,
  type FlowSummary,
  type FlowView,
  type Node,
  type Parsed,
} from '@shared/contract'
import { AppError } from '@shared/errors'
import { nameFromPrompt } from '@shared/conversationName'
import type { Db } from '../db/open'
import { isBusy, withoutWaiting } from '../db/shortBusyWaits'
import type { EventBus } from '../kernel/events'
import { whenFree } from '../kernel/afterFirstText'
import { AncestorLines } from './ancestorLines'
import { Ancestry, type PathMembers } from './ancestry'
import { TreeRoots } from './treeRoots'
import { FlowShapes } from './flowShapes'
import { FlowPatches } from './flowPatches'
import { ChangeRecorder } from './changes'
import { adjacency, reachable, wouldCycle } from './dag'
import type { ContextFlow } from './context'
import { castOf, GraphStore, type RootAlternative } from './graphStore'
import { ImportWriter } from './importWriter'
import { sweepContextParts } from './sentContexts'
import { isoNow } from '../kernel/time'
import { UndoHistory } from './undo'
import { around, flowCounts, newestMember, page } from './flowView'

export type { PathMembers } from './ancestry'
export type { ImportWriter, ImportedFlow, ImportedMember } from './importWriter'
export type { RootAlternative } from './graphStore'

/** A node of an imported conversation; its parents are earlier places in the same list. */
export interface ImportedNode {
  timestamp: string
  prompt: string
  response: string
  model: string
  status: Node['status']
  parents: readonly number[]
}

/** How long a flow deleted with `trash_flow` can be restored (the toast's Undo needs 12 s of it). */
export const RESTORABLE_MS = 2 * 60_000

/**
 * The conversation graph: flows, nodes and the DAG rules between them. Usable on its own
 * (scripts, tests, the CLI) — it needs only a database and an event bus.
 * Every edit to a flow's shape is recorded so it can be undone.
 */
export class GraphService {
  readonly store: GraphStore
  /** Writes what VizPrompt and ChatGPT imports bring, exactly as their files have it. */
  readonly imports: ImportWriter
  private readonly ancestry: Ancestry
  private readonly lines: AncestorLines
  private readonly roots: TreeRoots
  /** Whole flows for the seed's clients that ask for them (`flow_updated`), kept up to date rather than read whole. */
  private readonly shapes: FlowShapes
  /** What changed in each flow since its last announcement (`flow_changed`). */
  private readonly patches: FlowPatches
  private readonly history = new UndoHistory()
  /** Flows whose `flow_changed` is due; true: announced whole. */
  private readonly flowsToAnnounce = new Map<string, boolean>()
  private readonly removedListeners = new Set<(nodeIds: string[]) => void>()
  private purgeTimer: ReturnType<typeof setTimeout> | null = null
  /**
   * The text a streaming reply has sent to the windows so far (chat's, see readsLiveTextFrom): the
   * store holds what was last saved, up to a second behind. A window that opens a conversation
   * mid-reply, or asks for the node, reads this, and the pieces sent after it follow.
   */
  private liveText: (nodeId: string) => string | undefined = () => undefined

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {
    this.store = new GraphStore(db)
    this.imports = new ImportWriter(this.store)
    this.ancestry = new Ancestry(this.store)
    this.lines = new AncestorLines(this.store)
    this.roots = new TreeRoots(this.store)
    this.shapes = new FlowShapes(this.store)
    this.patches = new FlowPatches(this.store)
    // Parts of sent contexts deleted since the last start that nothing refers to any more.
    sweepContextParts(db)
    // Flows deleted before the last stop whose Undo has run out.
    this.purgeDeleted()
  }

  /**
   * Calls `listener` with the nodes an edit, undo or redo took out of the database (in no flow
   * any more), after the edit is committed: chat stops a reply streaming into one of them.
   */
  onNodesRemoved(listener: (nodeIds: string[]) => void): () => void {
    this.removedListeners.add(listener)
    return () => this.removedListeners.delete(listener)
  }

  private announceRemoved(candidates: Iterable<string>): void {
    if (this.removedListeners.size === 0) return
    const gone = [...candidates].filter((id) => !this.store.hasNode(id))
    if (gone.length === 0) return
    for (const listener of this.removedListeners) listener(gone)
  }

  // ---- flows

  createFlow(input: Parsed<'create_flow'>): Flow {
    const id = randomUUID()
    this.store.insertFlow({
      id,
      name: input.name,
      description: input.description ?? '',
      persona_id: input.persona_id ?? null,
      now: isoNow(),
      name_source: input.name_from_prompt ? 'placeholder' : 'user',
    })
    this.announceFlow(id)
    return this.getFlow(id)
  }

  listFlows(): FlowSummary[] {
    return this.store.listFlows()
  }

  /**
   * A flow's own fields without its nodes and connections: what a turn needs of a 5,000-node flow,
   * read once for the turn (its node, its context, its memory's reach).
   */
  flowInfo(
    id: string,
  ): Pick<
    Flow,
    'id' | 'name' | 'system_prompt' | 'token_budget' | 'persona_id' | 'cast' | 'turn_order' | 'memory_private'
  > {
    const row = this.store.flowRow(id)
    if (!row) throw new AppError('not_found', `flow ${id} not found`)
    return {
      id: row.id,
      name: row.name,
      system_prompt: row.system_prompt,
      token_budget: row.token_budget,
      persona_id: row.persona_id,
      memory_private: row.memory_private === 1,
      ...castOf(row),
    }
  }

  getFlow(id: string): Flow {
    const flow = this.store.flow(id)
    if (!flow) throw new AppError('not_found', `flow ${id} not found`)
    return flow
  }

  /**
   * A flow as a window opens it: read whole, with the path above its newest turn kept for the
   * prompt the user is about to send (Ancestry.readFlowKeepingNewest).
   */
  openFlow(id: string): Flow {
    const flow = this.ancestry.readFlowKeepingNewest(id, () => this.store.flow(id))
    if (!flow) throw new AppError('not_found', `flow ${id} not found`)
    return flow
  }

  /**
   * A flow by id, else by name, as scripts and the VizPrompt seed name them (`main`); null when
   * none has it. Two flows with the name are a conflict that lists their ids.
   */
  findFlow(ref: string): FlowSummary | null {
    const flows = this.store.listFlows()
    const byId = flows.find((f) => f.id === ref)
    if (byId) return byId
    const named = flows.filter((f) => f.name === ref)
    if (named.length > 1) {
      throw new AppError(
        'conflict',
        `${named.length} flows are named "${ref}"; give one's id: ${named.map((f) => f.id).join(', ')}`,
      )
    }
    return named[0] ?? null
  }

  /**
   * Where a message from another program goes: the persona's flow of that name ("External"),
   * made on first use, and the node added last to it, which the message continues.
   */
  personaFlowTail(name: string, personaId: string): { flow_id: string; parent_id: string | null } {
    const flowId = this.store.personaFlowId(name, personaId) ?? this.createFlow({ name, persona_id: personaId }).id
    return { flow_id: flowId, parent_id: this.store.lastMember(flowId) }
  }

  /** The node added last to a flow (its highest index), or null when it is empty. */
  lastMember(flowId: string): string | null {
    this.flowInfo(flowId) // not_found for an unknown flow
    return this.store.lastMember(flowId)
  }

  /** The flow a request without one goes to: the one named `main`, made on first use. */
  defaultFlow(): FlowSummary | Flow {
    return this.findFlow(DEFAULT_FLOW_NAME) ?? this.createFlow({ name: DEFAULT_FLOW_NAME })
  }

  /** The flow with its nodes' content, and the version of its last announcement (`flow_changed`). */
  loadFlow(id: string): FlowGraph {
    // The version before the read: a change made since is announced after it, and a patch
    // applied to a flow that already holds its change leaves it as it is.
    const version = this.patches.versionOf(id)
    const flow = this.openFlow(id)
    return { flow, nodes: this.store.flowNodes(id).map((n) => this.live(n)), version }
  }

  /** Where streaming replies' text is read until they are saved whole (the chat service). */
  readsLiveTextFrom(source: (nodeId: string) => string | undefined): void {
    this.liveText = source
  }

  /** A streaming node with the text its reply has sent so far; any other node as it is. */
  private live(node: Node): Node {
    if (node.status !== 'streaming') return node
    const text = this.liveText(node.id)
    return text === undefined || text === node.response ? node : { ...node, response: text }
  }

  /**
   * A flow as a window opens it (flowView.ts): whole when it is small or mostly waits for the
   * automatic layout; else the members around its newest turn, the rest read by `flowPage` and
   * other cards' content by `nodes`.
   */
  openView(id: string, view: { width: number; height: number }, at?: string): FlowView {
    const version = this.patches.versionOf(id)
    const row = this.store.flowRow(id)
    if (!row) throw new AppError('not_found', `flow ${id} not found`)
    const { total, unplaced } = flowCounts(this.store, row)
    const focus = at && this.store.member(id, at) ? at : newestMember(this.store, id)
    // A flow mostly never placed is laid out whole by the canvas (which needs every card); a
    // placed one with a few turns since places those below their parents.
    if (total <= FLOW_OPEN_WHOLE_MAX || unplaced * 2 > total || focus === null) {
      return { ...this.loadFlow(id), focus_id: focus, complete: true, total }
    }
    // The path above the newest turn is kept for the prompt the user is about to send, as
    // openFlow does, once this answer is on its way: read now it would delay the first paint,
    // and (0.5 s at 50,000 turns) it waits for any reply's first text like other deferred work.
    whenFree(() => {
      try {
        this.ancestry.of(id, focus)
      } catch {
        // Gone or changed meanwhile: the next prompt reads its path itself.
      }
    })
    const shown = around(this.store, row, focus, view)
    return { ...shown, nodes: shown.nodes.map((n) => this.live(n)), version, focus_id: focus, complete: false, total }
  }

  /** A page of a flow's members, newest first (flowView.ts `page`). */
  flowPage(id: string, before: number | null, limit: number): FlowPage {
    this.flowInfo(id) // not_found for an unknown flow
    return page(this.store, id, before, limit)
  }

  /** These nodes' content; ids that name no node are left out. */
  nodes(ids: readonly string[]): Node[] {
    return this.store.nodesByIds(ids).map((n) => this.live(n))
  }

  /** The flow whole, for the VizPrompt seed's clients that hear `flow_updated`; null when it is gone. */
  wholeFlow(id: string): Flow | null {
    return this.shapes.flow(id)
  }

  updateFlow(input: Parsed<'update_flow'>): Flow {
    const row = this.store.flowRow(input.id)
    if (!row) throw new AppError('not_found', `flow ${input.id} not found`)
    const { id, pinned, memory_private, cast, ...fields } = input
    this.store.updateFlow(
      id,
      {
        ...fields,
        ...(cast === undefined ? {} : castFields(cast, fields.persona_id ?? row.persona_id)),
        ...(pinned === undefined ? {} : { pinned: pinned ? 1 : 0 }),
        // SQLite keeps the switch as 0 or 1.
        ...(memory_private === undefined ? {} : { memory_private: memory_private ? 1 : 0 }),
        // A name the user gives is theirs: the first prompt no longer names the flow. The
        // settings dialog sends the name unchanged too, which changes nothing.
        ...(fields.name !== undefined && fields.name !== row.name ? { name_source: 'user' as const } : {}),
      },
      isoNow(),
    )
    this.announceFlow(id)
    return this.getFlow(id)
  }

  /**
   * Deletes a flow so that it can come back: hidden from the list at once, removed for good
   * (as deleteFlow does) once RESTORABLE_MS have passed, by a timer or at the next start.
   */
  trashFlow(id: string): { id: string; restorable_until: string } {
    const row = this.store.flowRow(id)
    if (!row || row.deleted !== null) throw new AppError('not_found', `flow ${id} not found`)
    const now = new Date()
    this.db.transaction(() => this.store.markDeleted(id, now.toISOString())).immediate()
    this.bus.emit('flow_deleted', { id })
    this.schedulePurge(RESTORABLE_MS)
    return { id, restorable_until: new Date(now.getTime() + RESTORABLE_MS).toISOString() }
  }

  /** Brings back a flow trashFlow deleted, exactly as it was. */
  restoreFlow(id: string): Flow {
    if (!this.db.transaction(() => this.store.unmarkDeleted(id)).immediate()) {
      throw new AppError('not_found', `flow ${id} is not waiting to be restored (never deleted, or gone for good)`)
    }
    // Shown again in the list and in full: nobody kept what changed while it was deleted.
    this.announceFlow(id, true)
    return this.getFlow(id)
  }

  /** Removes for good the deleted flows whose time to be restored has passed before `now`. */
  purgeDeleted(now = Date.now()): string[] {
    const waiting = this.store.markedDeleted()
    const due = waiting.filter((f) => Date.parse(f.deleted) + RESTORABLE_MS <= now).map((f) => f.id)
    for (const id of due) this.deleteFlow(id)
    const next = Math.min(...waiting.filter((f) => !due.includes(f.id)).map((f) => Date.parse(f.deleted)))
    if (Number.isFinite(next)) this.schedulePurge(next + RESTORABLE_MS - now)
    return due
  }

  private schedulePurge(inMs: number): void {
    if (this.purgeTimer) clearTimeout(this.purgeTimer)
    this.purgeTimer = setTimeout(
      () => {
        this.purgeTimer = null
        // The core may have closed the database since (a test, a quit).
        if (this.db.open) this.purgeDeleted()
      },
      Math.max(0, inMs) + 50,
    )
    // A pending purge never keeps a script or the CLI alive: the next start does it.
    this.purgeTimer.unref?.()
  }

  deleteFlow(id: string): { id: string; deleted_node_ids: string[] } {
    const flow = this.getFlow(id)
    const deleted = this.db
      .transaction(() => {
        this.store.deleteFlow(id)
        const orphans = flow.nodes.map((m) => m.id).filter((nodeId) => this.store.flowsOf(nodeId).length === 0)
        for (const nodeId of orphans) this.store.deleteNode(nodeId)
        return orphans
      })
      .immediate()
    this.history.forget(id)
    this.bus.emit('flow_deleted', { id })
    this.announceRemoved(deleted)
    return { id, deleted_node_ids: deleted }
  }

  // ---- nodes

  getNode(id: string): Node {
    const node = this.store.node(id)
    if (!node) throw new AppError('not_found', `node ${id} not found`)
    return this.live(node)
  }

  /** The node, or null when there is none (a job's late report about a deleted node). */
  findNode(id: string): Node | null {
    return this.store.node(id)
  }

  // ---- what other domains ask of the graph (they never reach the store)

  /**
   * The flow a node is answered in: the given one, which must hold the node; else the node's
   * only flow. A node shared by several flows needs the flow named — never a guess, or chat
   * and memory would read the wrong flow's path.
   */
  /** Every flow holding the node (none for an unknown id). */
  flowsOfNode(nodeId: string): string[] {
    return this.store.flowsOf(nodeId)
  }

  flowOf(nodeId: string, flowId?: string): string {
    if (flowId === undefined) return this.onlyFlowOf(nodeId)
    this.requireMember(flowId, nodeId, 'node')
    return flowId
  }

  /** A node's parents in a flow: a retry or an edit gets the same ones. */
  parentsOf(flowId: string, nodeId: string): string[] {
    return this.store.parentIds(flowId, nodeId)
  }

  /** A node's children in a flow (its branches), oldest first. */
  childrenOf(flowId: string, nodeId: string): string[] {
    return this.store.childIds(flowId, nodeId)
  }

  /** Records the picture items sent with a node's prompt, for its card and the inspector. */
  setImages(nodeId: string, images: NonNullable<Node['metadata']['images']>): void {
    this.store.setImages(nodeId, images)
  }

  /** Several nodes at once (two queries), for a context that reads a hundred of them. */
  getNodes(ids: readonly string[]): Node[] {
    return this.store.nodesByIds(ids)
  }

  /** The node and every ancestor in the flow: the conversation the model sees when answering it. */
  pathTo(flowId: string, nodeId: string): PathMembers {
    return this.pathAbove(flowId, [nodeId])
  }

  /** The nodes and every ancestor of theirs in the flow: the path a prompt below them continues. */
  pathAbove(flowId: string, nodeIds: readonly string[]): PathMembers {
    const paths = this.ancestries(flowId, nodeIds)
    if (paths.length === 1) return paths[0]!.members
    return new Set(paths.flatMap((p) => [...p.members]))
  }

  /**
   * What a prompt's context reads of a flow: its system prompt, the connections above the
   * parents and its pins — never the whole flow, which a long conversation makes milliseconds.
   */
  contextFlow(
    flowId: string,
    parentIds: readonly string[],
    info: Pick<Flow, 'id' | 'system_prompt'> = this.flowInfo(flowId),
  ): ContextFlow {
    return {
      id: info.id,
      system_prompt: info.system_prompt,
      connections: () => this.edgesAbove(flowId, parentIds),
      pathTo: (id) => this.ancestry.of(flowId, id),
      pinned: this.store.pinnedIds(flowId),
      isMember: (id) => this.store.isMember(flowId, id),
      lines: this.lines.current(),
    }
  }

  /** Every connection into the nodes and their ancestors in a flow. */
  private edgesAbove(flowId: string, nodeIds: readonly string[]): readonly Connection[] {
    const paths = this.ancestries(flowId, nodeIds)
    if (paths.length === 1) return paths[0]!.edges
    // A merge: the parents' paths share most of their edges.
    const edges = new Map<string, Connection>()
    for (const p of paths) for (const e of p.edges) edges.set(`${e.from}/${e.to}`, e)
    return [...edges.values()]
  }

  private ancestries(flowId: string, nodeIds: readonly string[]) {
    return [...new Set(nodeIds)].map((id) => this.ancestry.of(flowId, id))
  }

  /**
   * Where each node lies, for memory's reach across conversations (memory/pack/reach.ts): the roots
   * of its trees in every flow holding it, and whether any of those flows remembers only itself.
   * A node in no flow (deleted) is left out. Reads only upwards from these nodes, and only what
   * is not kept from before (treeRoots.ts).
   */
  nodeTrees(
    nodeIds: readonly string[],
  ): Map<string, { roots: ReadonlySet<string>; private: boolean; flows: readonly string[] }> {
    const out = new Map<string, { roots: Set<string>; private: boolean; flows: string[] }>()
    if (nodeIds.length === 0) return out
    const byFlow = new Map<string, string[]>()
    for (const m of this.store.flowsOfEach([...new Set(nodeIds)])) {
      const seen = out.get(m.node_id)
      if (seen) {
        seen.private ||= m.memory_private === 1
        seen.flows.push(m.flow_id)
      } else out.set(m.node_id, { roots: new Set(), private: m.memory_private === 1, flows: [m.flow_id] })
      const list = byFlow.get(m.flow_id)
      if (list) list.push(m.node_id)
      else byFlow.set(m.flow_id, [m.node_id])
    }
    for (const [flowId, ids] of byFlow)
      for (const [id, roots] of this.roots.of(flowId, ids)) for (const r of roots) out.get(id)!.roots.add(r)
    return out
  }

  /** The conversations that remember only themselves. */
  privateFlows(): Set<string> {
    return new Set(this.store.privateFlowIds())
  }

  /** Whether the conversation remembers only itself (an unknown flow: no). */
  memoryPrivate(flowId: string): boolean {
    return this.store.flowRow(flowId)?.memory_private === 1
  }

  /** The ids of a flow's nodes, in no particular order; none for a flow that does not exist. */
  memberIds(flowId: string): string[] {
    return this.store.memberIds(flowId)
  }

  isMember(flowId: string, nodeId: string): boolean {
    return this.store.isMember(flowId, nodeId)
  }

  /** The persona a flow is bound to, if any. */
  personaOf(flowId: string): string | null {
    return this.store.flowRow(flowId)?.persona_id ?? null
  }

  /**
   * Replies a stop cut off mid-stream: no process is streaming them any more, so they become
   * `incomplete` with the text that arrived (the card then offers Continue, or Try again when
   * nothing arrived) and stale, so "Build summaries" takes them. Start-up recovery calls it when
   * this process is alone on the home; returns how many there were.
   */
  finishInterruptedReplies(): number {
    return this.store.finishInterruptedReplies()
  }

  /**
   * A deleted persona's conversations stay, bound to no one. Called in the persona's deletion
   * (PersonaService.onDeleting, wired by the composition root), inside its transaction.
   */
  unbindPersona(personaId: string): void {
    this.store.unbindPersona(personaId)
  }

  /** Where a streaming reply stands (chat writes it as tokens arrive); `response` is the whole text so far. */
  setReply(nodeId: string, reply: Parameters<GraphStore['setReply']>[1]): void {
    this.store.setReply(nodeId, reply)
  }

  /** Keeps what was sent for a node, for the inspector's "sent with #n". */
  saveSentContext(nodeId: string, context: ContextPreview): void {
    // Its new parts and its row in one commit.
    this.db.transaction(() => this.store.saveSentContext(nodeId, context, isoNow())).immediate()
  }

  sentContext(nodeId: string): { context: ContextPreview; sent_at: string } | null {
    return this.store.sentContext(this.getNode(nodeId).id)
  }

  createNode(request: Parsed<'create_node'>): Node {
    return this.planNode(request).write()
  }

  /**
   * A new node checked (its flow and parents exist) and given its id, written only by `write`:
   * a chat turn sends the model its request first, and writes the node while it waits, already
   * marked as its reply starts (`reply`), in the same commit and with one event. `writeIfFree`
   * writes it only if no other connection holds the write lock now (null, nothing written, if
   * one does), so a thread expecting the model's answer never stops to wait for the lock.
   * `flow` is the flow's own fields as read for the check, for a caller that needs them next.
   */
  planNode(
    request: Parsed<'create_node'>,
    /** The first node this one is another version of, when it has no parents (createBranch). */
    alternativeOf?: string,
  ): {
    id: string
    flow: ReturnType<GraphService['flowInfo']>
    write: (reply?: Parameters<GraphStore['setReply']>[1]) => Node
    writeIfFree: (reply?: Parameters<GraphStore['setReply']>[1]) => Node | null
  } {
    const input = { ...request, flow_id: request.flow_id ?? this.defaultFlow().id }
    const flow = this.flowInfo(input.flow_id) // not_found before anything is written
    const parents = [...new Set(input.parent_ids ?? [])]
    for (const p of parents) this.requireMember(input.flow_id, p, 'parent')
    if (alternativeOf !== undefined) this.requireMember(input.flow_id, alternativeOf, 'node')
    const id = randomUUID()
    const write = (reply?: Parameters<GraphStore['setReply']>[1]) => {
      this.edit(input.flow_id, 'add node', (rec) => {
        rec.addNode(
          { id, timestamp: isoNow(), prompt: input.prompt, response: input.response ?? '', model: input.model ?? '' },
          dedupe(input.tags ?? []),
          input.position ?? null,
          parents.length === 0 ? alternativeOf : undefined,
        )
        // Not a change of its own: undoing the node takes it away whole.
        if (reply) this.store.setReply(id, reply)
        for (const p of parents) rec.addEdge(p, id)
        // A flow still called "New conversation" is named by its first prompt that has text.
        if (this.store.flowRow(input.flow_id)?.name_source === 'placeholder') {
          const name = nameFromPrompt(input.prompt)
          if (name) this.store.nameFromPrompt(input.flow_id, name)
        }
      })
      if (parents.length === 1) this.ancestry.keepBelow(input.flow_id, id)
      return this.getNode(id)
    }
    const writeIfFree = (reply?: Parameters<GraphStore['setReply']>[1]) => {
      try {
        return withoutWaiting(this.db, () => write(reply))
      } catch (e) {
        if (isBusy(e)) return null
        throw e
      }
    }
    return { id, flow, write, writeIfFree }
  }

  /**
   * A whole conversation from another app as a new flow, with one `flow_changed` at the end (an
   * import of thousands of turns must not emit one event per node). Each node names its parents
   * by their place in `nodes`, which lists parents before children. Written in slices by the
   * import writer (importWriter.ts): hidden until the last slice, removed again on a failure.
   * Not undoable: deleting the flow takes it back.
   */
  async importFlow(
    flow: { name: string; description: string; persona_id?: string | null },
    nodes: ReadonlyArray<ImportedNode>,
    options: { onProgress?: (written: number) => void; sliceMs?: number } = {},
  ): Promise<{ flow_id: string; node_ids: string[] }> {
    nodes.forEach((n, i) => {
      const later = n.parents.find((p) => p >= i)
      if (later !== undefined) throw new AppError('bad_input', `node ${i} names a later node (${later}) as its parent`)
    })
    const id = randomUUID()
    // Made row by row inside the slices: 40,000 at once held the loop ~40 ms (0.8 s on a busy machine).
    const ids: string[] = []
    await this.imports.writeInSlices(
      {
        begin: () => {
          this.store.insertFlow({
            id,
            name: flow.name,
            description: flow.description,
            persona_id: flow.persona_id ?? null,
            now: isoNow(),
          })
          return [id]
        },
        total: nodes.length,
        step: (i) => {
          const n = nodes[i]!
          ids[i] = randomUUID()
          this.store.insertNode({ id: ids[i], ...n })
          this.store.addMember(id, ids[i]!, null)
          for (const p of n.parents) this.store.addEdge(id, ids[p]!, ids[i]!)
        },
      },
      { sliceMs: options.sliceMs, onSlice: options.onProgress },
    )
    this.announceFlow(id, true)
    return { flow_id: id, node_ids: ids }
  }

  /**
   * Puts a node that exists (in another flow) into this one too, under the given parents; the
   * node is shared, not copied (seed §9.1 `add_node_to_flow`). Undoable.
   */
  addToFlow(input: Parsed<'add_node_to_flow'>): Flow {
    const flow = this.getFlow(input.flow_id)
    const node = this.getNode(input.node_id)
    if (this.store.isMember(flow.id, node.id))
      throw new AppError('conflict', `node ${node.id} is already in flow "${flow.name}"`, {
        key: 'node_in_flow',
        params: { name: flow.name },
      })
    const parents = [...new Set(input.parent_ids ?? [])]
    for (const p of parents) this.requireMember(flow.id, p, 'parent')
    return this.editFlow(flow.id, 'add node', (rec) => {
      this.share(rec, node)
      for (const p of parents) rec.addEdge(p, node.id)
    })
  }

  /**
   * A node of another flow into this one, the same node. Another version of a first node stays
   * one (root_alternatives), its original here or not: its tree is the one it has where it came
   * from, so a conversation going on from a regenerated first message (a story's route, a shared
   * turn) never takes the answer it replaced for another conversation's.
   */
  private share(rec: ChangeRecorder, node: Node): void {
    rec.addNode({ ...node, model: node.metadata.model }, [], null, this.store.originalOf(node.id) ?? undefined)
  }

  /** Which first node of the flow is another version of which, as an export writes it. */
  rootAlternatives(flowId: string): RootAlternative[] {
    return this.store.alternatives(flowId)
  }

  /**
   * Makes the flow exactly these nodes, joined one after the other in the order given (seed
   * §9.2 `rebuild_flow`): nodes left out leave the flow (deleted only when no other flow holds
   * them), and every other connection goes. Undoable in one step.
   */
  rebuildFlow(input: Parsed<'rebuild_flow'>): Flow {
    const flow = this.getFlow(input.flow_id)
    const ids = input.node_ids
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i)
    if (repeated) throw new AppError('bad_input', `rebuild_flow: node ${repeated} is listed twice`)
    const nodes = ids.map((id) => this.getNode(id))
    const keep = new Set(ids)
    return this.editFlow(flow.id, 'rebuild flow', (rec) => {
      for (const c of this.store.connections(flow.id)) rec.removeEdge(c.from, c.to)
      for (const m of this.store.members(flow.id)) if (!keep.has(m.id)) rec.removeNode(m.id)
      for (const node of nodes) if (!this.store.isMember(flow.id, node.id)) this.share(rec, node)
      for (let i = 1; i < ids.length; i++) rec.addEdge(ids[i - 1]!, ids[i]!)
    })
  }

  /** A sibling of `node_id` in its flow: same parents, its own prompt (retry or edit). */
  createBranch(input: Parsed<'create_branch'>): Node {
    const original = this.getNode(input.node_id)
    const flowId = input.flow_id ?? this.onlyFlowOf(input.node_id)
    this.requireMember(flowId, original.id, 'node')
    const parents = this.parentsOf(flowId, original.id)
    // Another version of a first node starts no conversation of its own: it is the original's tree.
    const node = { flow_id: flowId, prompt: input.prompt, response: input.response, parent_ids: parents }
    return this.planNode({ ...node, position: input.position }, original.id).write()
  }

  updateNode(input: Parsed<'update_node'>): Node {
    const before = this.getNode(input.id)
    const flowId = input.flow_id ?? this.onlyFlowOf(input.id)
    if (input.flow_id) this.requireMember(flowId, input.id, 'node')
    const textChanged =
      (input.prompt !== undefined && input.prompt !== before.prompt) ||
      (input.response !== undefined && input.response !== before.response)
    this.edit(flowId, 'edit node', (rec) => {
      if (textChanged) {
        rec.setText(input.id, before, { prompt: input.prompt, response: input.response })
        // Inside the edit, so the events carry the stale flags and undo/redo set them again.
        rec.markStale(this.dependents(input.id))
      }
      if (input.tags) rec.setTags(input.id, before.metadata.tags, dedupe(input.tags))
      if (input.position) rec.setPosition(input.id, input.position)
    })
    return this.getNode(input.id)
  }

  /** Removes a node from a flow; children are reattached to its parents or deleted with it. */
  deleteNode(input: Parsed<'delete_node'>): { deleted_node_ids: string[] } {
    this.requireMember(input.flow_id, input.id, 'node')
    const connections = this.store.connections(input.flow_id)
    const { parents, children } = adjacency(connections)
    const mode = input.mode ?? 'reattach'
    const doomed = mode === 'subtree' ? [input.id, ...reachable(children, input.id)] : [input.id]
    this.edit(input.flow_id, mode === 'subtree' ? 'delete branch' : 'delete node', (rec) => {
      if (mode === 'reattach') {
        const above = parents.get(input.id) ?? []
        // A first message deleted: what went on below it is still its conversation, as another
        // version of it is (root_alternatives), not a new one that memory would take the other
        // versions' turns into as something said elsewhere.
        const original = above.length === 0 ? (this.store.alternativeOf(input.flow_id, input.id) ?? input.id) : null
        for (const child of children.get(input.id) ?? []) {
          for (const parent of above) rec.addEdge(parent, child)
          if (original !== null && parents.get(child)?.length === 1) rec.setAlternative(child, original)
        }
      }
      for (const id of doomed) rec.removeNode(id)
    })
    return { deleted_node_ids: doomed }
  }

  // ---- edges

  connect(input: Parsed<'connect_nodes'>): Flow {
    this.checkEdge(input.flow_id, input.source_id, input.target_id, this.store.connections(input.flow_id))
    return this.editFlow(input.flow_id, 'connect', (rec) => {
      rec.addEdge(input.source_id, input.target_id)
      if (input.branch_name) rec.setEdgeLabel(input.source_id, input.target_id, input.branch_name)
    })
  }

  /** Names the branch starting at source → target (null: unnamed again). Undoable. */
  nameBranch(input: Parsed<'name_branch'>): Flow {
    this.requireEdge(input.flow_id, input.source_id, input.target_id)
    return this.editFlow(input.flow_id, input.name ? 'name branch' : 'unname branch', (rec) =>
      rec.setEdgeLabel(input.source_id, input.target_id, input.name),
    )
  }

  disconnect(input: Parsed<'disconnect_nodes'>): Flow {
    this.requireEdge(input.flow_id, input.source_id, input.target_id)
    return this.editFlow(input.flow_id, 'disconnect', (rec) => rec.removeEdge(input.source_id, input.target_id))
  }

  reconnect(input: Parsed<'reconnect_nodes'>): Flow {
    const { flow_id: flowId } = input
    this.requireEdge(flowId, input.source_id, input.target_id)
    const others = this.store
      .connections(flowId)
      .filter((c) => !(c.from === input.source_id && c.to === input.target_id))
    this.checkEdge(flowId, input.new_source_id, input.new_target_id, others)
    // A named branch keeps its name when its connection is dragged elsewhere.
    const label = this.store.edgeLabel(flowId, input.source_id, input.target_id)
    return this.editFlow(flowId, 're-parent', (rec) => {
      rec.removeEdge(input.source_id, input.target_id)
      rec.addEdge(input.new_source_id, input.new_target_id)
      if (label) rec.setEdgeLabel(input.new_source_id, input.new_target_id, label)
    })
  }

  setPinned(input: Parsed<'set_pinned'>): Flow {
    this.requireMember(input.flow_id, input.node_id, 'node')
    return this.editFlow(input.flow_id, input.pinned ? 'pin' : 'unpin', (rec) =>
      rec.setPinned(input.node_id, input.pinned),
    )
  }

  setPositions(input: Parsed<'set_positions'>): Flow {
    for (const p of input.positions) this.requireMember(input.flow_id, p.id, 'node')
    return this.editFlow(
      input.flow_id,
      input.positions.every((p) => p.position === null) ? 'tidy layout' : 'move',
      (rec) => {
        for (const p of input.positions) rec.setPosition(p.id, p.position)
      },
    )
  }

  // ---- undo

  undo(flowId: string) {
    this.getFlow(flowId)
    const edit = this.history.popUndo(flowId)
    if (edit) this.replay(flowId, edit.touched, () => [...edit.changes].reverse().forEach((c) => c.revert()))
    return this.history.state(flowId)
  }

  redo(flowId: string) {
    this.getFlow(flowId)
    const edit = this.history.popRedo(flowId)
    if (edit) this.replay(flowId, edit.touched, () => edit.changes.forEach((c) => c.apply()))
    return this.history.state(flowId)
  }

  undoState(flowId: string) {
    this.getFlow(flowId)
    return this.history.state(flowId)
  }

  // ---- internals

  /** Runs one edit in a transaction, records it for undo, then tells every window. */
  /** An edit, answered with the flow as it now is. */
  private editFlow(flowId: string, label: string, body: (rec: ChangeRecorder) => void): Flow {
    this.edit(flowId, label, body)
    return this.getFlow(flowId)
  }

  private edit(flowId: string, label: string, body: (rec: ChangeRecorder) => void): void {
    const rec = new ChangeRecorder(this.store, flowId)
    this.db
      .transaction(() => {
        body(rec)
        this.store.touchFlow(flowId, isoNow())
      })
      .immediate()
    this.history.record(flowId, { label, changes: rec.changes, touched: [...rec.touched] })
    for (const id of rec.touched) {
      const node = this.store.node(id)
      if (!node) continue
      // A new node, or one shared into the flow: windows showing it learn its content with it.
      if (rec.joined.has(id)) this.bus.emit('node_created', { flow_id: flowId, node })
      else this.bus.emit('node_updated', { node })
    }
    this.announceFlow(flowId)
    this.announceRemoved(rec.touched)
  }

  private replay(flowId: string, touched: string[], body: () => void): void {
    const before = new Set(touched.filter((id) => this.store.isMember(flowId, id)))
    this.db
      .transaction(() => {
        body()
        this.store.touchFlow(flowId, isoNow())
      })
      .immediate()
    // Nodes that came back, or whose text went back, must reach the canvas with their content.
    for (const id of touched) {
      const node = this.store.isMember(flowId, id) ? this.store.node(id) : null
      if (!node) continue
      if (before.has(id)) this.bus.emit('node_updated', { node })
      else this.bus.emit('node_created', { flow_id: flowId, node })
    }
    this.announceFlow(flowId)
    this.announceRemoved(touched)
  }

  /**
   * Tells every window what changed in the flow (`flow_changed`, flowPatches.ts): once for the
   * edits of one turn of the event loop, after the current work is done — after a chat turn's
   * request has left and its first text has come back (or a few milliseconds later), not before.
   * The node events go at once. Writers of flows outside this service (a VizPrompt import)
   * announce through here too; `whole`: too much changed to list, a window showing the flow
   * reads it again.
   */
  announceFlow(flowId: string, whole = false): void {
    if (this.flowsToAnnounce.size === 0) whenFree(() => this.announceFlows())
    this.flowsToAnnounce.set(flowId, whole || this.flowsToAnnounce.get(flowId) === true)
  }

  private announceFlows(): void {
    const due = new Map(this.flowsToAnnounce)
    this.flowsToAnnounce.clear()
    if (!this.db.open) return // closed meanwhile: nobody is listening
    for (const patch of this.patches.collect(due)) this.bus.emit('flow_changed', patch)
  }

  private checkEdge(flowId: string, from: string, to: string, connections: Flow['connections']): void {
    this.requireMember(flowId, from, 'source')
    this.requireMember(flowId, to, 'target')
    if (from === to) throw new AppError('cycle', 'a node cannot be connected to itself')
    if (wouldCycle(connections, from, to)) {
      throw new AppError('cycle', `connecting ${from} → ${to} would create a cycle: ${to} already leads to ${from}`)
    }
  }

  private requireMember(flowId: string, nodeId: string, role: string): void {
    if (!this.store.isMember(flowId, nodeId))
      throw new AppError('not_found', `${role} node ${nodeId} is not in flow ${flowId}`)
  }

  private requireEdge(flowId: string, from: string, to: string): void {
    if (!this.store.hasEdge(flowId, from, to))
      throw new AppError('not_found', `no connection ${from} → ${to} in flow ${flowId}`)
  }

  private onlyFlowOf(nodeId: string): string {
    const flows = this.store.flowsOf(nodeId)
    if (flows.length === 0) throw new AppError('not_found', `node ${nodeId} not found`)
    if (flows.length > 1) throw new AppError('bad_input', `node ${nodeId} is in ${flows.length} flows: give flow_id`)
    return flows[0]!
  }

  /** The node and every node whose context included it (its descendants in any flow): their summaries go stale with it. */
  private dependents(nodeId: string): string[] {
    const ids = new Set([nodeId])
    for (const flowId of this.store.flowsOf(nodeId)) {
      for (const id of reachable(adjacency(this.store.connections(flowId)).children, nodeId)) ids.add(id)
    }
    return [...ids]
  }
}

/**
 * A cast as the flow keeps it: each persona once, in the order given. Fewer than two make no
 * scene (the flow goes back to one persona: the one left, if any); the flow's persona is one of
 * the cast, the first unless it already is.
 */
function castFields(cast: readonly CastMember[], personaId: string | null): { cast_json: string; persona_id?: string } {
  const seen = new Set<string>()
  const kept = cast.filter((m) => !seen.has(m.persona_id) && seen.add(m.persona_id))
  const persona = kept.some((m) => m.persona_id === personaId) ? {} : kept[0] ? { persona_id: kept[0].persona_id } : {}
  return { cast_json: JSON.stringify(kept.length >= 2 ? kept : []), ...persona }
}

function dedupe(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))]
}
