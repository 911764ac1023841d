import { z } from 'zod'
import { PermanentJobError } from '../../kernel/jobs/handlers'
import { isObject, parseJson } from '../../llm/json'
import { capsule } from './capsuleJob'
import { embedWithModel } from './embedJob'
import { EntityRole, EntityType, LoopStatus, RelationType, UnitKind, UnitState } from '../store/enums'
import type { MemoryStore, UnitRow } from '../store/store'
import { askJson, type MemoryJobContext, type MemoryJobHandler } from './jobContext'
import { entitySummaryJobs, summarize } from './summaryJobs'

/** The jobs an episode gets after it is saved (summaries are queued per period, coalesced). */
export const EPISODE_JOBS = ['extract'] as const
/** What EPISODE_JOBS were before the extraction became one call; old queues may still hold them. */
export const LEGACY_EPISODE_JOBS = ['reflect', 'extract_entities', 'extract_facts', 'extract_loops'] as const
/** Job kinds whose success means the episode's entities are known (entity summaries may follow). */
export const ENTITY_JOBS: readonly string[] = ['extract', 'extract_entities']

const UnitPayload = z.object({ unit_id: z.number().int(), model: z.string() })

const Reflection = z.object({
  emotion_label: z.enum(['joy', 'sadness', 'anger', 'fear', 'neutral', 'surprise', 'love']).catch('neutral'),
  emotion_intensity: z.number().min(0).max(1),
  topic_tags: z.array(z.string().max(40)).max(8),
  salience: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
})

const entityTypes = ['person', 'place', 'project', 'work', 'topic', 'org'] as const
const relationTypes = [
  'related',
  'knows',
  'family',
  'friend',
  'works_at',
  'lives_in',
  'likes',
  'part_of',
  'works_on',
] as const
const Entities = z.object({
  entities: z
    .array(
      z.object({
        name: z.string().min(1).max(100),
        type: z.enum(entityTypes).catch('topic'),
        aliases: z.array(z.string().max(100)).max(10).default([]),
        role: z.enum(['subject', 'object', 'mention', 'speaker']).catch('mention'),
      }),
    )
    .max(30),
  relations: z
    .array(z.object({ src: z.string(), rel: z.enum(relationTypes).catch('related'), dst: z.string() }))
    .max(30)
    .default([]),
})

const Facts = z.object({
  facts: z
    .array(
      z.object({
        subject: z.string().min(1).max(100),
        predicate: z.string().min(1).max(60),
        object: z.string().min(1).max(500),
        valid_from: z.string().nullable().optional(),
        valid_to: z.string().nullable().optional(),
        /** A fact only one value of which can hold at a time (lives in, works at): a new one closes the old. */
        exclusive: z.boolean().default(true),
        confidence: z.number().min(0).max(1).default(0.7),
      }),
    )
    .max(20),
})

const Loops = z.object({
  open: z.array(z.object({ text: z.string().min(1).max(500), due: z.string().nullable().optional() })).max(10),
  resolved: z.array(z.number().int()).max(20).default([]),
})

function episode(ctx: MemoryJobContext, raw: unknown): { unit: UnitRow; text: string; model: string } | null {
  const p = UnitPayload.safeParse(raw)
  if (!p.success) throw new PermanentJobError(`bad payload: ${p.error.message}`)
  const unit = ctx.store.unit(p.data.unit_id)
  if (!unit || unit.kind !== UnitKind.EPISODE) return null // deleted since: nothing to do
  return { unit, text: ctx.store.text(unit), model: p.data.model }
}

/** Whether units of this kind already rest on the episode: a re-run job must not add them twice. */
function derivedFrom(store: MemoryStore, episodeId: number, kind: number): boolean {
  return (
    store
      .prepare(
        'SELECT 1 FROM unit_evidence ue JOIN units u ON u.id = ue.unit_id WHERE ue.evidence_unit_id = ? AND u.kind = ? LIMIT 1',
      )
      .get(episodeId, kind) !== undefined
  )
}

/** Writes an episode's reflection: emotion, topics, salience, confidence (the episode is then validated). */
function applyReflection(store: MemoryStore, unit: UnitRow, r: z.infer<typeof Reflection>): void {
  const reflection = Object.fromEntries(Reflection.keyof().options.map((k) => [k, r[k]]))
  // `extracted`: written with every other part in one transaction, so it marks the whole extraction done.
  store.editPayload(unit.id, { reflection_json: JSON.stringify({ ...reflection, extracted: true }) }, 'reflect')
  store.editMeta(
    unit.id,
    {
      emotion_label: r.emotion_label,
      emotion_intensity: r.emotion_intensity,
      topic_tags: r.topic_tags,
      salience: r.salience,
      confidence: r.confidence,
      state: unit.state === UnitState.RAW ? UnitState.VALIDATED : undefined,
    },
    'reflect',
  )
}

export function normalizeName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
}

/** The entity an alias names (any type), else a new one with that alias. */
export function resolveEntity(store: MemoryStore, name: string, etype: number, aliases: string[] = []): number {
  const now = store.db.prepare('SELECT unixepoch() AS t').pluck().get() as number
  const keys = [name, ...aliases].map(normalizeName).filter(Boolean)
  const found = store.db
    .prepare('SELECT entity_id FROM entity_aliases WHERE alias IN (SELECT value FROM json_each(?)) LIMIT 1')
    .pluck()
    .get(JSON.stringify(keys)) as number | undefined
  const id =
    found ??
    (store.db
      .prepare(
        'INSERT INTO entities (etype, name, normalized, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      )
      .pluck()
      .get(etype, name.trim(), normalizeName(name), now, now) as number)
  for (const alias of keys)
    store.db.prepare('INSERT OR IGNORE INTO entity_aliases (entity_id, alias) VALUES (?, ?)').run(id, alias)
  return id
}

const roleValues = {
  subject: EntityRole.SUBJECT,
  object: EntityRole.OBJECT,
  mention: EntityRole.MENTION,
  speaker: EntityRole.SPEAKER,
}

/** Links an episode to the entities it names, with roles, and strengthens their relations; returns the entity ids. */
function applyEntities(store: MemoryStore, unit: UnitRow, r: z.infer<typeof Entities>): number[] {
  const ids = new Map<string, number>()
  for (const e of r.entities) {
    const id = resolveEntity(store, e.name, EntityType[e.type.toUpperCase() as keyof typeof EntityType], e.aliases)
    ids.set(normalizeName(e.name), id)
    store.db
      .prepare('INSERT OR IGNORE INTO unit_entities (unit_id, entity_id, role, weight) VALUES (?, ?, ?, 1.0)')
      .run(unit.id, id, roleValues[e.role])
  }
  const at = unit.occurred_at ?? unit.created_at
  for (const rel of r.relations) {
    const src = ids.get(normalizeName(rel.src)) ?? resolveEntity(store, rel.src, EntityType.TOPIC)
    const dst = ids.get(normalizeName(rel.dst)) ?? resolveEntity(store, rel.dst, EntityType.TOPIC)
    // A second episode strengthens the edge; the same episode again changes nothing.
    store.db
      .prepare(
        `INSERT INTO edges (src_entity_id, rel_type, dst_entity_id, weight, first_seen_at, last_seen_at, evidence_unit_id)
           VALUES (?, ?, ?, 1.0, ?, ?, ?)
           ON CONFLICT (src_entity_id, rel_type, dst_entity_id) DO UPDATE SET
             weight = weight + (CASE WHEN evidence_unit_id IS excluded.evidence_unit_id THEN 0 ELSE 1 END),
             last_seen_at = max(coalesce(last_seen_at, 0), excluded.last_seen_at),
             evidence_unit_id = excluded.evidence_unit_id`,
      )
      .run(src, RelationType[rel.rel.toUpperCase() as keyof typeof RelationType], dst, at, at, unit.id)
  }
  return [...new Set(ids.values())]
}

function parseTime(text: string | null | undefined): number | null {
  if (!text) return null
  const t = Date.parse(text)
  return Number.isNaN(t) ? null : Math.floor(t / 1000)
}

/**
 * Facts stated in an episode, each with the episode as evidence. A fact that contradicts an
 * open one (same subject and predicate, another object) closes the old one's validity — the
 * old fact stays, with `valid_to` set — rather than deleting it.
 */
function applyFacts(store: MemoryStore, unit: UnitRow, facts: z.infer<typeof Facts>['facts']): void {
  const at = unit.occurred_at ?? unit.created_at
  for (const f of facts) {
    const subject = resolveEntity(store, f.subject, EntityType.PERSON)
    const open = store.db
      .prepare(
        `SELECT unit_id, object_text FROM payload_fact WHERE subject_entity_id = ? AND predicate = ?
           AND (valid_to IS NULL OR valid_to > ?) AND unit_id IN (SELECT id FROM units WHERE state != ${UnitState.ARCHIVED})`,
      )
      .all(subject, f.predicate, at) as Array<{ unit_id: number; object_text: string | null }>
    const same = open.find((o) => normalizeName(o.object_text ?? '') === normalizeName(f.object))
    if (same) {
      // Seen again: one more piece of evidence, no new unit.
      const ids = new Set([...store.evidenceOf(same.unit_id), unit.id])
      store.addEvidence(same.unit_id, [unit.id])
      store.editPayload(same.unit_id, { evidence_unit_ids_json: JSON.stringify([...ids]) }, 'more evidence')
      continue
    }
    const id = store.createUnit({
      kind: UnitKind.FACT,
      source: 'extract_facts',
      occurred_at: at,
      confidence: f.confidence,
      state: UnitState.VALIDATED,
      sensitivity: unit.sensitivity,
      evidence: [unit.id],
      payload: {
        subject_entity_id: subject,
        predicate: f.predicate,
        object_text: f.object,
        valid_from: parseTime(f.valid_from) ?? at,
        valid_to: parseTime(f.valid_to),
        evidence_unit_ids_json: JSON.stringify([unit.id]),
      },
    })
    if (f.exclusive) for (const o of open) store.editPayload(o.unit_id, { valid_to: at }, `superseded by fact ${id}`)
  }
}

/** The loops open before an episode, which it may resolve (the latest 30). */
function openLoopsBefore(store: MemoryStore, episodeId: number): Array<{ id: number; text: string }> {
  return store.db
    .prepare(
      `SELECT unit_id AS id, loop_text AS text FROM payload_loop WHERE status = ${LoopStatus.OPEN}
       AND unit_id < ? ORDER BY unit_id DESC LIMIT 30`,
    )
    .all(episodeId) as Array<{ id: number; text: string }>
}

/** Open loops an episode starts, and earlier loops it resolves (closed, not deleted). */
function applyLoops(
  store: MemoryStore,
  unit: UnitRow,
  r: z.infer<typeof Loops>,
  open: Array<{ id: number; text: string }>,
): void {
  const at = unit.occurred_at ?? unit.created_at
  for (const l of r.open)
    store.createUnit({
      kind: UnitKind.LOOP,
      source: 'extract_loops',
      occurred_at: at,
      sensitivity: unit.sensitivity,
      evidence: [unit.id],
      payload: { status: LoopStatus.OPEN, due_at: parseTime(l.due), loop_text: l.text },
    })
  for (const id of r.resolved) {
    if (!open.some((o) => o.id === id)) continue
    store.addEvidence(id, [unit.id])
    store.editPayload(id, { status: LoopStatus.CLOSED }, `resolved by episode ${unit.id}`)
  }
}

/** Every part of an episode's extraction, in one answer (the model fills all, whichever are still missing). */
const Extraction = Reflection.extend(Entities.shape).extend(Facts.shape).extend(Loops.shape)

const EXTRACTION_PROMPT = `You read one memory of a conversation and note what is worth remembering, all in one JSON object:
- emotion_label (joy|sadness|anger|fear|neutral|surprise|love), emotion_intensity 0..1, topic_tags (short words), salience 0..1 (how worth remembering), confidence 0..1;
- entities: the people, places, projects, works, topics and organisations named [{name, type (${entityTypes.join('|')}), aliases [], role (subject|object|mention|speaker)}]; relations between entity names [{src, rel (${relationTypes.join('|')}), dst}];
- facts: stable facts stated (preferences, relationships, settings, plans) [{subject, predicate (likes|is|lives_in|works_at|…), object, valid_from (ISO date or null), valid_to, exclusive (true when only one value can hold at a time), confidence 0..1}];
- open: open loops — things promised, planned or left unfinished [{text, due (ISO date or null)}]; resolved: the ids of the currently open loops this memory resolves.
Empty lists when there is nothing to note.`

/**
 * One episode's reflection, entities, facts and open loops from one structured call (rather than
 * a call each), written in one transaction. Idempotent: a re-run asks nothing once the episode
 * is extracted; an episode some of whose parts older separate jobs wrote gets only the rest.
 */
const extract: MemoryJobHandler = async (raw, ctx) => {
  const ep = episode(ctx, raw)
  if (!ep) return
  const { store } = ctx
  const id = ep.unit.id
  const reflected = parseJson(String(store.payload(ep.unit).reflection_json ?? ''))
  if (isObject(reflected) && reflected.extracted === true) return // done before
  // Not extracted in one go: an older database's separate jobs may have done some parts.
  const missing = {
    reflection: reflected === undefined,
    entities: store.db.prepare('SELECT 1 FROM unit_entities WHERE unit_id = ? LIMIT 1').get(id) === undefined,
    facts: !derivedFrom(store, id, UnitKind.FACT),
    loops: !derivedFrom(store, id, UnitKind.LOOP),
  }
  if (!Object.values(missing).some(Boolean)) return
  const open = openLoopsBefore(store, id)
  const r = await askJson(
    ctx,
    ep.model,
    EXTRACTION_PROMPT,
    `Currently open loops:\n${open.map((o) => `#${o.id}: ${o.text}`).join('\n') || '(none)'}\n\nMemory:\n${ep.text}`,
    Extraction,
    'memory_extraction',
  )
  const named = store.db
    .transaction(() => {
      // The unit as it is now: another part may have changed it while the model answered.
      const unit = store.requireUnit(id)
      if (missing.reflection) applyReflection(store, unit, r)
      const entities = missing.entities ? applyEntities(store, unit, r) : []
      if (missing.facts) applyFacts(store, unit, r.facts)
      if (missing.loops) applyLoops(store, unit, r, open)
      return entities
    })
    .immediate()
  // A chat episode lies on a branch: the main thread queues that branch's entity summaries
  // (it knows the graph). An imported one belongs to every branch: summarise across them.
  if (ep.unit.origin_node_id !== null) return
  for (const j of entitySummaryJobs(store, ep.model, named))
    ctx.enqueue(j.kind, j.payload, { dedupeKey: j.dedupeKey, delaySeconds: j.delaySeconds })
}

/** Recomputes every unit's FTS row and vector (idempotent; in chunks so the worker stays responsive). */
const reindex: MemoryJobHandler = async (_raw, ctx) => {
  const { store } = ctx
  let after = 0
  for (;;) {
    if (ctx.signal.aborted) throw new Error('stopped')
    const ids = store.db
      .prepare('SELECT id FROM units WHERE id > ? ORDER BY id LIMIT 500')
      .pluck()
      .all(after) as number[]
    if (ids.length === 0) return
    store.db
      .transaction(() => {
        for (const id of ids) store.reindex(id)
      })
      .immediate()
    after = ids.at(-1)!
    await new Promise((r) => setImmediate(r))
  }
}

/** `{model}`: the persona's embedding model catches up with changed units; `{unit_id}`: one local vector. */
const embed: MemoryJobHandler = async (raw, ctx) => {
  const p = z.union([z.object({ model: z.string() }), z.object({ unit_id: z.number().int() })]).safeParse(raw)
  if (!p.success) throw new PermanentJobError(`bad payload: ${p.error.message}`)
  if ('model' in p.data) return embedWithModel(p.data.model, ctx)
  if (ctx.store.unit(p.data.unit_id)) ctx.store.reindexVector(p.data.unit_id)
}

export const memoryJobHandlers: Record<string, MemoryJobHandler> = {
  extract,
  // The four jobs an episode had before extraction was one call: queued ones in an older
  // database run the whole extraction once (the others then find their parts done).
  ...Object.fromEntries(LEGACY_EPISODE_JOBS.map((kind) => [kind, extract])),
  summarize,
  reindex,
  embed,
  capsule,
}
