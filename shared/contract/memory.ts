import { z } from 'zod'
import { ImageInput } from './chat'
import { FilePath, SearchText } from './names'
import type { EventSpecs, MethodSpecs } from './spec'

// Persona memory (seed 002 Unit+Payload schema, seed 004 Scheduler/MemoryPack).
// Each persona has its own database; every method names the persona it reads or changes.

const PersonaId = z.string().min(1).max(200)
const UnitId = z.number().int().positive()
/** The text of one unit, as a user adds or edits it; imported messages are held to it too. */
export const MemoryUnitText = z.string().min(1).max(100_000)

export const MemoryUnitKind = z.enum(['episode', 'fact', 'summary', 'persona', 'contract', 'capsule', 'loop'])
export type MemoryUnitKind = z.infer<typeof MemoryUnitKind>
export const MemoryUnitState = z.enum(['raw', 'validated', 'consolidated', 'archived'])
export type MemoryUnitState = z.infer<typeof MemoryUnitState>
export const MemorySensitivity = z.enum(['normal', 'private', 'secret'])
export type MemorySensitivity = z.infer<typeof MemorySensitivity>

/** Where a unit came from and what backs it, so a reader can check why it is believed. */
export const MemoryRef = z.object({
  type: z.enum(['node', 'external', 'evidence']),
  /** A flow node id, an imported message id, or an evidence unit id (as text). */
  id: z.string(),
  flow_id: z.string().nullable().optional(),
})
export type MemoryRef = z.infer<typeof MemoryRef>

/** One unit's common metadata and its text as search and the MemoryPack see it. */
export const MemoryUnit = z.object({
  id: UnitId,
  kind: MemoryUnitKind,
  state: MemoryUnitState,
  sensitivity: MemorySensitivity,
  pin: z.boolean(),
  /** Promoted by the user: eligible on every branch, not only where its evidence lies. */
  global: z.boolean(),
  source: z.string().nullable(),
  confidence: z.number(),
  salience: z.number(),
  topic_tags: z.array(z.string()),
  emotion_label: z.string().nullable(),
  emotion_intensity: z.number().nullable(),
  /** UTC epoch seconds. */
  occurred_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  version: z.number().int(),
  origin_node_id: z.string().nullable(),
  origin_flow_id: z.string().nullable(),
  external_ref: z.string().nullable(),
  text: z.string(),
})
export type MemoryUnit = z.infer<typeof MemoryUnit>

export const MemoryUnitVersion = z.object({
  version: z.number().int(),
  parent_version: z.number().int().nullable(),
  patch_reason: z.string().nullable(),
  payload_hash: z.string().nullable(),
  created_at: z.number().int(),
  /** The unit's payload and metadata as they were at this version. */
  payload: z.record(z.string(), z.unknown()),
})

export const MemoryUnitDetail = z.object({
  unit: MemoryUnit,
  /** The kind's own fields (`payload_<kind>` columns). */
  payload: z.record(z.string(), z.unknown()),
  versions: z.array(MemoryUnitVersion),
  evidence: z.array(MemoryUnit),
  refs: z.array(MemoryRef),
  entities: z.array(z.object({ id: z.number().int(), name: z.string(), role: z.string() })),
})
export type MemoryUnitDetail = z.infer<typeof MemoryUnitDetail>

export const MemoryUnitReach = z.object({
  rule: z.enum(['global', 'not_from_a_conversation', 'shared', 'private', 'gone']),
  conversations: z.array(
    z.object({
      flow_id: z.string(),
      name: z.string(),
      /** The conversation remembers only itself (marked so, or its persona is). */
      private: z.boolean(),
      /** `all`: anywhere in it; `branch`: on the branches through `node_ids` (the turns it came from); `none`. */
      sees: z.enum(['all', 'branch', 'none']),
      node_ids: z.array(z.string()),
    }),
  ),
})
export type MemoryUnitReach = z.infer<typeof MemoryUnitReach>

export const MemoryPackItem = z.object({
  unit_id: UnitId,
  kind: MemoryUnitKind,
  text: z.string(),
  tokens: z.number().int(),
  refs: z.array(MemoryRef),
  /** Why the Scheduler chose it: the section rule and its scores. */
  why: z.string(),
})

export const MemoryPack = z.object({
  /** Tokens of the rendered pack text; never above the budget. */
  tokens: z.number().int(),
  intent: z.string(),
  sections: z.array(z.object({ kind: z.string(), items: z.array(MemoryPackItem) })),
  /** The text injected into the system message. Empty when nothing was chosen. */
  text: z.string(),
  /** Who decided the intent: the rules, or the lightweight model when the rules were unsure. */
  intent_by: z.enum(['rules', 'model']).optional(),
  /** The vectors searched: the built-in local embedder, plus the persona's embedding model when it answered. */
  vectors: z.array(z.string()).optional(),
})
export type MemoryPack = z.infer<typeof MemoryPack>

const Ref = z.object({ persona_id: PersonaId, unit_id: UnitId }).strict()

/** Absent: the only persona there is (with several, the call names which). */
const ExternalFields = { persona_id: PersonaId.optional(), images: z.array(ImageInput).max(8).optional() }
export const NotificationInput = z
  .object({ ...ExternalFields, source_system: z.string().trim().min(1).max(200), text: MemoryUnitText })
  .strict()
export const MetaRequestInput = z
  .object({
    ...ExternalFields,
    /** The seed's name for the persona's memory; the same as persona_id. */
    memory_id: PersonaId.optional(),
    instruction: z.string().min(1).max(20_000),
    payload_text: z.string().max(200_000),
  })
  .strict()
const ExternalAccepted = z.object({ unit_id: UnitId, persona_id: z.string() })
/** Either kind, as the memory domain handles it. */
export type ExternalMessageInput =
  | ({ type: 'notification' } & z.output<typeof NotificationInput>)
  | ({ type: 'meta_request' } & z.output<typeof MetaRequestInput>)

const EntityOut = z.object({
  id: z.number().int(),
  etype: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  unit_count: z.number().int(),
})
const EdgeOut = z.object({
  src_entity_id: z.number().int(),
  rel_type: z.string(),
  dst_entity_id: z.number().int(),
  weight: z.number(),
  first_seen_at: z.number().int().nullable(),
  last_seen_at: z.number().int().nullable(),
  evidence_unit_id: z.number().int().nullable(),
})

export const MemoryJobStatus = z.enum(['queued', 'running', 'done', 'failed'])
export const MemoryJob = z.object({
  id: z.number().int(),
  /** extract (an episode's reflection, entities, facts and loops in one call), summarize, capsule, embed, reindex. */
  kind: z.string(),
  status: MemoryJobStatus,
  tries: z.number().int(),
  last_error: z.string().nullable(),
  /** The unit the job works on, when it works on one. */
  unit_id: z.number().int().nullable(),
  /** What a summary job covers (`2025-W50`, `person:12`), else null. */
  scope: z.string().nullable(),
  run_after: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
})
export type MemoryJob = z.infer<typeof MemoryJob>

export const MemoryStatus = z.object({
  units: z.number().int(),
  jobs: z.object({
    queued: z.number().int(),
    /** Queued jobs whose time has come (the rest wait, like coalesced summaries). */
    due: z.number().int(),
    running: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
  }),
  /** The persona's embedding model (null: built-in vectors only) and the units it has yet to embed. */
  vectors: z.object({ model: z.string().nullable(), waiting: z.number().int() }),
  /** What memory jobs spent on the lightweight model today (local day): calls and tokens, and the daily limit. */
  spend: z.object({
    calls_today: z.number().int(),
    tokens_today: z.number().int(),
    daily_token_budget: z.number().int().nullable(),
  }),
  /**
   * Whether memory jobs may call the model: paused by the user, by the circuit breaker after
   * repeated failures of `model` (with the last `reason`), or by today's spent budget; null: running.
   */
  paused: z.object({
    by: z.enum(['user', 'breaker', 'budget']).nullable(),
    reason: z.string().nullable(),
    model: z.string().nullable(),
  }),
})
export type MemoryStatus = z.infer<typeof MemoryStatus>

export const memoryMethods = {
  /**
   * Builds a MemoryPack: persona and contract, capsule, open loops, facts, summaries and
   * episodes chosen by hybrid retrieval, greedily packed within `budget_tokens`. With a
   * `node_id`, only memories that node may remember are eligible: its evidence on the node's
   * active path, or in a conversation tree that shares no ancestor with it and is not private
   * (none beyond the path when the node's conversation, or the persona, remembers only itself).
   */
  memory_pack: {
    input: z
      .object({
        persona_id: PersonaId,
        query: z.string().max(100_000),
        budget_tokens: z.number().int().min(1).max(100_000),
        node_id: z.string().optional(),
        flow_id: z.string().optional(),
        /** SECRET units only when asked for explicitly. */
        include_secret: z.boolean().optional(),
      })
      .strict(),
    output: MemoryPack,
  },
  /**
   * Imports a chat log as episodes; jobs process them unless `no_llm`. The file is JSONL
   * (`{id, speaker, text, time}` per line), LoCoMo JSON (`.json`) or a `speaker: text`
   * transcript. From a window or the WebSocket, `path` names a file in the home's `imports/`
   * folder (relative to it, or absolute inside it); only the command line may name any file.
   */
  memory_import: {
    input: z.object({ persona_id: PersonaId, path: FilePath, no_llm: z.boolean().optional() }).strict(),
    output: z.object({
      imported: z.number().int(),
      /** Lines already imported (same id) or unreadable. */
      skipped: z.number().int(),
      /** Lines that could not be read (each listed in `errors`, up to 20, with its line and why). */
      unreadable: z.number().int(),
      errors: z.array(z.string()),
      jobs: z.number().int(),
    }),
  },
  /** Units by kind, state, entity, time range and text, newest first. */
  memory_list_units: {
    input: z
      .object({
        persona_id: PersonaId,
        kind: MemoryUnitKind.optional(),
        state: MemoryUnitState.optional(),
        entity_id: z.number().int().optional(),
        /** UTC epoch seconds, on `occurred_at`. */
        from: z.number().int().optional(),
        to: z.number().int().optional(),
        query: SearchText(1000).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict(),
    output: z.object({ units: z.array(MemoryUnit), total: z.number().int() }),
  },
  /** One unit with every version, its evidence and its origin. */
  memory_get_unit: { input: Ref, output: MemoryUnitDetail },
  /** Adds a unit by hand (persona anchor, contract, capsule, fact, loop, episode). */
  memory_add_unit: {
    input: z
      .object({
        persona_id: PersonaId,
        kind: MemoryUnitKind,
        text: MemoryUnitText,
        sensitivity: MemorySensitivity.optional(),
        pin: z.boolean().optional(),
        occurred_at: z.number().int().optional(),
      })
      .strict(),
    output: MemoryUnitDetail,
  },
  /** Edits the payload: a new version; the previous one stays readable. */
  memory_edit_unit: {
    input: Ref.extend({
      payload: z.record(z.string(), z.unknown()),
      reason: z.string().max(1000).optional(),
    }).strict(),
    output: MemoryUnitDetail,
  },
  memory_pin_unit: { input: Ref.extend({ pin: z.boolean() }).strict(), output: MemoryUnit },
  /** Archived units leave normal retrieval; unarchiving makes them validated again. */
  memory_archive_unit: { input: Ref.extend({ archived: z.boolean() }).strict(), output: MemoryUnit },
  memory_set_sensitivity: { input: Ref.extend({ sensitivity: MemorySensitivity }).strict(), output: MemoryUnit },
  /** Promotes a unit to every branch (or back to its own). */
  memory_set_global: { input: Ref.extend({ global: z.boolean() }).strict(), output: MemoryUnit },
  memory_delete_unit: { input: Ref, output: z.object({ deleted: z.boolean() }) },
  /**
   * Which conversations may remember a unit. `rule`: `global` (promoted by the user) and
   * `not_from_a_conversation` (imported, or added by hand) reach every one; `shared` reaches the
   * branches through the turns it came from and every other conversation not kept private;
   * `private` (it came from a conversation that remembers only itself, or the persona's
   * conversations all do) reaches those branches alone; `gone`: the turn it came from was
   * deleted, no conversation remembers it. `conversations` lists the persona's conversations
   * (and the ones it came from), those it came from first.
   */
  memory_unit_reach: { input: Ref, output: MemoryUnitReach },
  memory_list_entities: {
    input: z.object({ persona_id: PersonaId, query: z.string().max(200).optional() }).strict(),
    output: z.object({ entities: z.array(EntityOut), edges: z.array(EdgeOut) }),
  },
  /** "Why did the persona remember this?": every pack injected for the node, newest first. */
  memory_packs_for_node: {
    input: z.object({ persona_id: PersonaId, node_id: z.string() }).strict(),
    output: z.array(
      z.object({ created_at: z.number().int(), query: z.string(), budget_tokens: z.number().int(), pack: MemoryPack }),
    ),
  },
  /** Job counts of the persona's memory (queued, running, done, failed), what it spent today, whether it is paused. */
  memory_status: { input: z.object({ persona_id: PersonaId }).strict(), output: MemoryStatus },
  /**
   * The persona's memory pause switch. `paused: true` stops memory jobs from calling the model
   * (they wait, queued); `false` resumes them (also after the circuit breaker paused them), and
   * with `retry_failed` gives the failed jobs another go too.
   */
  memory_set_paused: {
    input: z.object({ persona_id: PersonaId, paused: z.boolean(), retry_failed: z.boolean().optional() }).strict(),
    output: MemoryStatus,
  },
  /** The most tokens memory jobs may spend per day (local time); null: no limit. Jobs over it wait for the next day. */
  memory_set_budget: {
    input: z
      .object({ persona_id: PersonaId, daily_tokens: z.number().int().min(1).max(1_000_000_000).nullable() })
      .strict(),
    output: MemoryStatus,
  },
  /** The persona's memory jobs, newest first; failed ones can be retried by hand. */
  memory_list_jobs: {
    input: z
      .object({
        persona_id: PersonaId,
        status: MemoryJobStatus.optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .strict(),
    output: z.object({ jobs: z.array(MemoryJob) }),
  },
  /** Gives dead-lettered jobs another go (all failed ones when `job_ids` is absent). */
  memory_retry_jobs: {
    input: z.object({ persona_id: PersonaId, job_ids: z.array(z.number().int()).max(1000).optional() }).strict(),
    output: z.object({ retried: z.number().int() }),
  },
  /**
   * Something another program wants the persona to pass on (seed 004 `/api/notification`):
   * answered at once with the placeholder EPISODE's id; the persona's reply follows as an
   * `external_reply` event and in its External flow.
   */
  memory_notify: { input: NotificationInput, output: ExternalAccepted },
  /**
   * An instruction for the persona about some text (seed 004 `/api/meta_request`): stored as
   * `[redacted]`, only the embedding job queued; the reply follows as `external_reply`.
   */
  memory_meta_request: { input: MetaRequestInput, output: ExternalAccepted },
  /** Recomputes every unit's embedding in the memory worker. */
  memory_reindex: {
    input: z.object({ persona_id: PersonaId }).strict(),
    output: z.object({ job_id: z.number().int() }),
  },
} as const satisfies MethodSpecs

export const memoryEvents = {
  /** A persona's answer to a notification or meta request (`data.error` when none came). */
  external_reply: z.object({
    unit_id: z.number().int(),
    persona_id: z.string(),
    type: z.enum(['notification', 'meta_request']),
    data: z.object({
      system_text: z.string().optional(),
      message: z.string().optional(),
      error: z.string().optional(),
    }),
  }),
  /** A persona's memory changed (an exchange recorded, a job finished, an edit). */
  memory_changed: z.object({ persona_id: z.string(), unit_ids: z.array(z.number().int()) }),
  /**
   * The user asked a persona to remember something ("Remember that my cat is called Mochi"): it is
   * kept as a pinned fact (`unit_id`), said back so the user can take it back.
   */
  memory_told: z.object({
    persona_id: z.string(),
    node_id: z.string(),
    unit_id: z.number().int(),
    text: z.string(),
  }),
  /** The user asked a persona to forget what it was asked to remember: those facts are archived (Undo unarchives them). */
  memory_forgot: z.object({
    persona_id: z.string(),
    node_id: z.string(),
    units: z.array(z.object({ unit_id: z.number().int(), text: z.string() })),
  }),
} as const satisfies EventSpecs
