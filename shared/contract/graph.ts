import { z } from 'zod'
import { LorePosition, LoreReason } from './lorebook'
import { DisplayName, SearchText } from './names'
import type { EventSpecs, MethodSpecs } from './spec'

// The conversation graph (VizPrompt seed §4–5): flows of prompt/response nodes joined by
// directed connections. Branches and merges are allowed; cycles are not.

const Id = z.string().uuid()
/** Where a node goes when its request names no flow (seed §12.2's `create_node`); made on first use. */
export const DEFAULT_FLOW_NAME = 'main'
/** The longest prompt or reply any method takes; imports hold their files to it too. */
export const NodeText = z.string().max(2_000_000)
export const NodeTag = z.string().trim().min(1).max(64)
/** Tags a caller may give one node. */
export const NODE_TAGS_MAX = 32
/** Tags the summariser adds to a node at most (after the user's own). */
export const SUMMARY_TAGS_MAX = 7
export const ModelName = z.string().max(200)
const Text = NodeText
const Tag = NodeTag

export const RoleStats = z.object({
  /** Tokens. */
  count: z.number().int().nonnegative(),
  /** Seconds. */
  duration: z.number().nonnegative(),
  /** Tokens per second. */
  rate: z.number().nonnegative(),
})

export const NodeStatus = z.enum(['complete', 'streaming', 'incomplete', 'error'])

export const Node = z.object({
  id: Id,
  /** ISO 8601 with offset, as the seed writes it. */
  timestamp: z.string(),
  prompt: z.string(),
  response: z.string(),
  status: NodeStatus,
  /** Why the reply failed or stopped early, in words for the user; null when it completed. */
  error: z.string().nullable(),
  metadata: z.object({
    model: z.string(),
    stats: z.object({ user: RoleStats.optional(), assistant: RoleStats.optional() }),
    summary: z.object({
      text: z.string(),
      /** True while the summary is stale: the node (or something it depends on) changed since it was built. */
      updated: z.boolean(),
      last_built: z.string().nullable(),
    }),
    tags: z.array(z.string()),
    /** Pictures sent with the prompt, as the picture items they are; absent when none. */
    images: z.array(z.object({ item_id: Id, mime: z.string() })).optional(),
    /** The persona who spoke the reply (a group scene's member); absent for the flow's own, or none. */
    speaker_id: z.string().optional(),
  }),
})
export type Node = z.infer<typeof Node>

export const Position = z.object({ x: z.number().finite(), y: z.number().finite() })
export type Position = z.infer<typeof Position>

/** How a group scene chooses who answers (shared/groupTurns.ts). */
export const TurnOrder = z.enum(['manual', 'round_robin', 'addressed'])
export type TurnOrder = z.infer<typeof TurnOrder>
/** A persona taking part in a group scene; a muted one speaks only when picked by hand. */
export const CastMember = z.object({ persona_id: z.string().min(1).max(200), muted: z.boolean() })
export type CastMember = z.infer<typeof CastMember>
/** The most personas one scene holds. */
export const CAST_MAX = 16

export const FlowMember = z.object({
  /** Stable per flow: 1, 2, 3… in order of arrival, never reused. */
  index: z.number().int().positive(),
  id: Id,
  /** Null until the user drags it: the canvas lays it out automatically. */
  position: Position.nullable(),
  /** Pinned as a reference: its summary and tags go into every context of the flow. */
  pinned: z.boolean(),
})
export type FlowMember = z.infer<typeof FlowMember>

/** The name of the branch a connection starts (seed §9.2 `branch_name`). */
export const BranchName = z.string().trim().min(1).max(200)
/** `label`: present only on a connection whose branch was named. */
export const Connection = z.object({ from: Id, to: Id, label: z.string().optional() })
export type Connection = z.infer<typeof Connection>

/**
 * Where a flow's name came from: a `placeholder` until the first prompt names it (`prompt`);
 * `user` for a name the user (or an import, or a script) gave, which nothing replaces.
 */
export const FlowNameSource = z.enum(['placeholder', 'prompt', 'user'])
export type FlowNameSource = z.infer<typeof FlowNameSource>

export const FlowSummary = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  created: z.string(),
  updated: z.string(),
  persona_id: z.string().nullable(),
  node_count: z.number().int().nonnegative(),
  /** Kept at the top of the conversation list. */
  pinned: z.boolean(),
  name_source: FlowNameSource,
  /** The newest timestamp of a node added to it (deleting one does not move it back); its creation when none was. */
  last_activity: z.string(),
})
export type FlowSummary = z.infer<typeof FlowSummary>

export const Flow = FlowSummary.omit({ node_count: true, pinned: true, name_source: true, last_activity: true }).extend(
  {
    system_prompt: z.string(),
    /** Tokens the context may use; null follows the app default. */
    token_budget: z.number().int().positive().nullable(),
    /**
     * "Remembers only itself": memory answers it from its own branch and lends its memories to
     * no other conversation. Always sent by the app; absent reads as false.
     */
    memory_private: z.boolean().optional(),
    /**
     * A group scene's personas, in the order they take turns; absent for a conversation with one
     * persona (or none). The flow's `persona_id` is one of them.
     */
    cast: z.array(CastMember).optional(),
    /** How the next speaker is chosen; sent with `cast`. */
    turn_order: TurnOrder.optional(),
    nodes: z.array(FlowMember),
    connections: z.array(Connection),
  },
)
export type Flow = z.infer<typeof Flow>

/** Everything the canvas needs in one answer. */
export const FlowGraph = z.object({
  flow: Flow,
  nodes: z.array(Node),
  /** The flow's last announced version (`flow_changed`): the next change names it as its `previous`. */
  version: z.number().int(),
})
export type FlowGraph = z.infer<typeof FlowGraph>

/**
 * A flow bigger than this opens around its newest turn first and reads the rest in pages
 * (`open_flow`, `load_flow_page`): what a window shows first then costs the same at 50,000
 * cards as at 2,000. Smaller flows come whole in one answer.
 */
export const FLOW_OPEN_WHOLE_MAX = 1500
/** Members a page of `load_flow_page` holds at most. */
export const FLOW_PAGE_MAX = 10_000
/** Nodes `get_nodes` answers at most in one call. */
export const GET_NODES_MAX = 1000

/** A flow as a window opens it: whole when small, else the part around its newest turn. */
export const FlowView = FlowGraph.extend({
  /** Where the window opens: the node asked for, else the newest turn (by time); null in an empty flow. */
  focus_id: Id.nullable(),
  /**
   * True: `flow` holds every member and connection, `nodes` every node's content. False: only
   * the members around the focus (and the far ends of their connections), with their content;
   * the rest comes from `load_flow_page`, other cards' content from `get_nodes`.
   */
  complete: z.boolean(),
  /** Members the flow has. */
  total: z.number().int().nonnegative(),
})
export type FlowView = z.infer<typeof FlowView>

/** A page of a flow's members, newest index first, with every connection into them. */
export const FlowPage = z.object({
  members: z.array(FlowMember),
  connections: z.array(Connection),
  /** The `before` of the next page; null after the last one. */
  next: z.number().int().nullable(),
})
export type FlowPage = z.infer<typeof FlowPage>

/**
 * What changed in a flow's shape since its previous announcement, as it now is: applied to the
 * flow at `previous` it gives the flow at `version` (shared/flowPatch.ts). Every part is the
 * current state of what it names, so applying a change the flow already holds changes nothing.
 */
export const FlowPatch = z.object({
  flow_id: Id,
  /** This announcement; the flow's next one names it as its `previous`. */
  version: z.number().int(),
  /** The version this patch follows: a window holding another one missed a change and reads the flow again. */
  previous: z.number().int(),
  /** Too much changed to list (an import, a restore): a window showing the flow reads it again. */
  whole: z.boolean(),
  /** The flow's own fields as they now are. */
  flow: Flow.omit({ nodes: true, connections: true }),
  /** Its row in the conversation list; null when the list leaves it out (being imported, deleted). */
  summary: FlowSummary.nullable(),
  /** Members added or changed (moved, pinned), as they now are, by index. */
  members: z.array(FlowMember),
  /** Nodes that left the flow. */
  removed: z.array(Id),
  /** Nodes whose incoming connections changed; `connections` holds all of those now into them. */
  targets: z.array(Id),
  connections: z.array(Connection),
})
export type FlowPatch = z.infer<typeof FlowPatch>

export const FlowName = DisplayName(200)
export const FlowDescription = z.string().max(10_000)
export const SystemPrompt = z.string().max(100_000)
/** Tokens a flow's context may use. */
export const TokenBudget = z.number().int().min(256).max(2_000_000)

export const SearchHit = Node.extend({
  flow_ids: z.array(Id),
  /** The conversations the node is in, by name, in the order of `flow_ids`: a result says where it is from. */
  flows: z.array(z.object({ id: Id, name: z.string() })),
  /** Prompt/response/summary excerpts with matches wrapped in ⟦ ⟧ for the UI to highlight. */
  excerpt: z.string(),
})
export type SearchHit = z.infer<typeof SearchHit>

export const ContextPart = z.object({
  kind: z.enum([
    'system',
    'instructions',
    'memory',
    'ancestor_summary',
    'parent',
    'reference',
    'details_note',
    'prompt',
    /** Story mode: a scenario file (world, player, a character, the AI's rules). */
    'scenario',
    /** Story mode: the story so far that holds on this branch. */
    'story_summary',
    /** Story mode: a recent turn, word for word (the short-term memory). */
    'recent_turn',
    /** A lorebook entry that fired (`lore` says which and why). */
    'lore',
    /** The conversation's Author's Note. */
    'authors_note',
  ]),
  node_id: Id.nullable(),
  text: z.string(),
  tokens: z.number().int().nonnegative(),
  /** For a `lore` part: the entry, why it fired, and where it went. */
  lore: z
    .object({
      book_id: z.string(),
      book_name: z.string(),
      uid: z.number().int(),
      comment: z.string(),
      reason: LoreReason,
      position: LorePosition,
    })
    .optional(),
  /** For a part put among the messages (`at_depth` lore, the Author's Note): how many messages from the end. */
  depth: z.number().int().nonnegative().optional(),
})
export type ContextPart = z.infer<typeof ContextPart>

export const ContextPreview = z.object({
  parts: z.array(ContextPart),
  total_tokens: z.number().int().nonnegative(),
  budget: z.number().int().positive(),
  /** Ancestors left out because the budget ran out, oldest first. */
  dropped_node_ids: z.array(Id),
  /**
   * What the tools offered beside the messages take (their schemas): the budget keeps room for
   * them, so the parts get `budget - tool_tokens` at most.
   */
  tool_tokens: z.number().int().nonnegative().optional(),
  /** The messages as a chat model receives them. */
  messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })),
  /**
   * The chat model counts `ratio` of its tokens per token we count (learned from the usage it
   * reported over `samples` replies), so `budget` is the flow's budget divided by it.
   */
  calibration: z
    .object({ model: z.string(), ratio: z.number().positive(), samples: z.number().int().positive() })
    .optional(),
  /**
   * Lorebook keys left out of this turn's matching: regular expressions that took too long on a
   * text once (a runaway pattern) and are skipped from then on, so their entries fire only by
   * their other keys.
   */
  skipped_lore_keys: z
    .array(
      z.object({
        book_id: z.string(),
        book_name: z.string(),
        uid: z.number().int(),
        comment: z.string(),
        key: z.string(),
      }),
    )
    .optional(),
})
export type ContextPreview = z.infer<typeof ContextPreview>

export const UndoState = z.object({
  can_undo: z.boolean(),
  can_redo: z.boolean(),
  undo_label: z.string().nullable(),
  redo_label: z.string().nullable(),
})

export const graphMethods = {
  create_flow: {
    input: z
      .object({
        name: FlowName,
        description: FlowDescription.optional(),
        persona_id: z.string().optional(),
        /** True: `name` is a placeholder ("New conversation") that the first prompt replaces. */
        name_from_prompt: z.boolean().optional(),
      })
      .strict(),
    output: Flow,
  },
  /** Pinned flows first, then by last activity, newest first. Deleted flows waiting for Undo are left out. */
  list_flows: { input: z.object({}).strict(), output: z.array(FlowSummary) },
  /** By id or by name (`{id: "main"}` works too, as in the VizPrompt seed). */
  get_flow: {
    input: z
      .object({ id: z.string().min(1).max(200).optional(), name: FlowName.optional() })
      .strict()
      .refine((i) => (i.id === undefined) !== (i.name === undefined), 'give id or name, not both'),
    output: Flow,
  },
  /**
   * Where a program's chat message goes (the local API): the flow given, or the persona's
   * "External" flow (made on first use); and the node added last to it, which the message
   * continues (null in an empty flow).
   */
  chat_target: {
    input: z.object({ persona_id: z.string().min(1).max(200), flow_id: Id.optional() }).strict(),
    output: z.object({ flow_id: Id, parent_id: Id.nullable() }),
  },
  /** The flow with every node's content, for the canvas. */
  load_flow: { input: z.object({ id: Id }).strict(), output: FlowGraph },
  /**
   * The flow as a window opens it (FlowView). `view` is the size of the canvas in flow units at
   * the zoom it opens at: the members within that distance of the newest turn come first, or of
   * `focus_id` (a link to a message) when it is one of the flow's.
   */
  open_flow: {
    input: z
      .object({
        id: Id,
        view: z.object({ width: z.number().positive().max(1e6), height: z.number().positive().max(1e6) }).strict(),
        focus_id: Id.optional(),
      })
      .strict(),
    output: FlowView,
  },
  /** The members of a flow with an index below `before` (all when null), newest first, `limit` at most. */
  load_flow_page: {
    input: z
      .object({ id: Id, before: z.number().int().nullable(), limit: z.number().int().min(1).max(FLOW_PAGE_MAX) })
      .strict(),
    output: FlowPage,
  },
  update_flow: {
    input: z
      .object({
        id: Id,
        name: FlowName.optional(),
        description: FlowDescription.optional(),
        system_prompt: SystemPrompt.optional(),
        token_budget: TokenBudget.nullable().optional(),
        /** The persona who speaks in this conversation; null unbinds it. */
        persona_id: z.string().nullable().optional(),
        /** Kept at the top of the conversation list. */
        pinned: z.boolean().optional(),
        /** True: the persona remembers only this conversation in it, and nothing of it elsewhere. */
        memory_private: z.boolean().optional(),
        /**
         * A group scene's personas in turn order (each once); fewer than two makes it a plain
         * conversation again. The flow's persona becomes the first member unless it is one.
         */
        cast: z.array(CastMember).max(CAST_MAX).optional(),
        turn_order: TurnOrder.optional(),
      })
      .strict(),
    output: Flow,
  },
  /** Deletes the flow; its nodes go too unless another flow holds them. */
  delete_flow: { input: z.object({ id: Id }).strict(), output: z.object({ id: Id, deleted_node_ids: z.array(Id) }) },
  /**
   * Deletes the flow so that `restore_flow` can bring it back until `restorable_until`: it leaves
   * the list at once (`flow_deleted`), and is deleted for good (as `delete_flow` does) after that.
   */
  trash_flow: {
    input: z.object({ id: Id }).strict(),
    output: z.object({ id: Id, restorable_until: z.string() }),
  },
  /** Brings back a flow `trash_flow` deleted, as it was; not_found once it is gone for good. */
  restore_flow: { input: z.object({ id: Id }).strict(), output: Flow },

  create_node: {
    input: z
      .object({
        /** Absent: the flow named `main` (DEFAULT_FLOW_NAME), made on first use. */
        flow_id: Id.optional(),
        prompt: Text,
        response: Text.optional(),
        parent_ids: z.array(Id).max(64).optional(),
        model: ModelName.optional(),
        tags: z.array(Tag).max(NODE_TAGS_MAX).optional(),
        position: Position.optional(),
      })
      .strict(),
    output: Node,
  },
  get_node: { input: z.object({ id: Id }).strict(), output: Node },
  /** The content of these nodes (the cards a window shows); ids that name no node are left out. */
  get_nodes: { input: z.object({ ids: z.array(Id).min(1).max(GET_NODES_MAX) }).strict(), output: z.array(Node) },
  update_node: {
    input: z
      .object({
        id: Id,
        prompt: Text.optional(),
        response: Text.optional(),
        tags: z.array(Tag).max(NODE_TAGS_MAX).optional(),
        /** Where it sits on the canvas of `flow_id` (needed only when the node is in several flows). */
        position: Position.optional(),
        flow_id: Id.optional(),
      })
      .strict(),
    output: Node,
  },
  /**
   * Removes a node from a flow. Children are reattached to its parents (`reattach`, the
   * default) or deleted with it (`subtree`). Undoable.
   */
  delete_node: {
    input: z.object({ id: Id, flow_id: Id, mode: z.enum(['reattach', 'subtree']).optional() }).strict(),
    output: z.object({ deleted_node_ids: z.array(Id) }),
  },
  /** Puts an existing node into another flow as well (shared, not copied), under `parent_ids`. Undoable. */
  add_node_to_flow: {
    input: z.object({ flow_id: Id, node_id: Id, parent_ids: z.array(Id).max(64).optional() }).strict(),
    output: Flow,
  },
  /**
   * Makes the flow exactly `node_ids`, joined one after another in that order; nodes left out
   * leave the flow (deleted when no other flow holds them). Undoable.
   */
  rebuild_flow: {
    input: z.object({ flow_id: Id, node_ids: z.array(Id).min(1).max(100_000) }).strict(),
    output: Flow,
  },
  /** Adds the edge source → target. A cycle is refused with error `cycle`. */
  connect_nodes: {
    input: z.object({ flow_id: Id, source_id: Id, target_id: Id, branch_name: BranchName.optional() }).strict(),
    output: Flow,
  },
  /** Names the branch starting at source → target, or unnames it with `name: null`. Undoable. */
  name_branch: {
    input: z.object({ flow_id: Id, source_id: Id, target_id: Id, name: BranchName.nullable() }).strict(),
    output: Flow,
  },
  disconnect_nodes: { input: z.object({ flow_id: Id, source_id: Id, target_id: Id }).strict(), output: Flow },
  /** Moves one end of an edge in one step (drag to re-parent). */
  reconnect_nodes: {
    input: z.object({ flow_id: Id, source_id: Id, target_id: Id, new_source_id: Id, new_target_id: Id }).strict(),
    output: Flow,
  },
  /** A sibling of `node_id`: same parents, a new prompt. The original stays. */
  create_branch: {
    input: z
      .object({
        node_id: Id,
        prompt: Text,
        flow_id: Id.optional(),
        response: Text.optional(),
        position: Position.optional(),
      })
      .strict(),
    output: Node,
  },
  /** Moves nodes on the canvas; a null position hands the node back to automatic layout (tidy). */
  set_positions: {
    input: z
      .object({
        flow_id: Id,
        positions: z
          .array(z.object({ id: Id, position: Position.nullable() }))
          .min(1)
          .max(100_000),
      })
      .strict(),
    output: Flow,
  },
  set_pinned: { input: z.object({ flow_id: Id, node_id: Id, pinned: z.boolean() }).strict(), output: Flow },

  search_nodes: {
    input: z
      .object({
        tags: z.array(Tag).max(16).optional(),
        keywords: z
          .array(SearchText(200).pipe(z.string().trim().min(1)))
          .max(16)
          .optional(),
        flow_id: Id.optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .strict(),
    output: z.object({ nodes: z.array(SearchHit) }),
  },
  list_tags: {
    input: z.object({ flow_id: Id.optional() }).strict(),
    output: z.array(z.object({ tag: z.string(), count: z.number().int() })),
  },

  /**
   * Queues summary + tags for every node whose summary is stale (seed §7.2), with the
   * lightweight model, as background jobs. Progress arrives as `job_progress` events.
   */
  build_summaries: {
    /** `node_id`: that node's summary only, rebuilt even when it is up to date (seed §9.1 `build_summary`). */
    input: z.object({ flow_id: Id.optional(), node_id: Id.optional() }).strict(),
    output: z.object({ batch: z.string(), queued: z.number().int().nonnegative() }),
  },

  graph_undo: { input: z.object({ flow_id: Id }).strict(), output: UndoState },
  graph_redo: { input: z.object({ flow_id: Id }).strict(), output: UndoState },
  get_undo_state: { input: z.object({ flow_id: Id }).strict(), output: UndoState },
} as const satisfies MethodSpecs

export const graphEvents = {
  node_created: z.object({ flow_id: Id, node: Node }),
  node_updated: z.object({ node: Node }),
  /** Reply text as it streams; `delta` is appended to the node's response. */
  node_stream: z.object({ node_id: Id, delta: z.string() }),
  /**
   * The whole flow, as the VizPrompt seed's clients hear it: sent over the WebSocket only to a
   * client that subscribed to it, made from `flow_changed` (the app itself listens to that).
   */
  flow_updated: z.object({ flow: Flow }),
  /** The flow's shape changed: nodes added or removed, edges, pins, positions, name; only what changed. */
  flow_changed: FlowPatch,
  flow_deleted: z.object({ id: Id }),
} as const satisfies EventSpecs
