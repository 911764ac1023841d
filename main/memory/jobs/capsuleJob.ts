import { z } from 'zod'
import { PermanentJobError } from '../../kernel/jobs/handlers'
import { UnitKind, UnitState } from '../store/enums'
import { askJson, type MemoryJobHandler } from './jobContext'
import { isoDate, type UnitRow } from '../store/store'

/** How long a capsule holds after its latest exchange: short-term state, stale after half a day. */
export const CAPSULE_HOURS = 12
/** The latest exchanges on the branch a capsule reads. */
export const CAPSULE_EPISODES = 8

const Payload = z.object({ model: z.string(), unit_ids: z.array(z.number().int()).min(1).max(50) })

const Capsule = z.object({
  mood: z.string().max(200),
  focus: z.string().max(300),
  tone: z.string().max(200),
  follow_up: z.array(z.string().max(200)).max(3).default([]),
})

/**
 * The capsule (seed 002: short-term state, for the conversation's tempo): the user's mood, the
 * current focus, the tone to keep and what to come back to, from the latest exchanges of one
 * branch. It rests on those episodes, so another branch never sees it; it expires on its own.
 * Idempotent: the same exchanges never make a second capsule.
 */
export const capsule: MemoryJobHandler = async (raw, ctx) => {
  const p = Payload.safeParse(raw)
  if (!p.success) throw new PermanentJobError(`bad payload: ${p.error.message}`)
  const { store } = ctx
  const episodes = p.data.unit_ids
    .map((id) => store.unit(id))
    .filter((u): u is UnitRow => u !== null && u.kind === UnitKind.EPISODE && u.state !== UnitState.ARCHIVED)
  if (episodes.length === 0) return
  const ids = episodes.map((e) => e.id).sort((a, b) => a - b)
  const same = store.db
    .prepare(
      `SELECT u.id FROM units u WHERE u.kind = ${UnitKind.CAPSULE}
       AND (SELECT json_group_array(evidence_unit_id) FROM (SELECT evidence_unit_id FROM unit_evidence
            WHERE unit_id = u.id ORDER BY evidence_unit_id)) = ? LIMIT 1`,
    )
    .get(JSON.stringify(ids))
  if (same) return
  const r = await askJson(
    ctx,
    p.data.model,
    'From the latest exchanges of a conversation, write its short-term state so the persona keeps the tempo. Fields: mood (the user’s mood now), focus (what the talk is about now), tone (how to speak next), follow_up (up to 3 things to come back to). Short phrases.',
    episodes.map((e) => `[${isoDate(e.occurred_at ?? e.created_at)}] ${store.text(e)}`).join('\n'),
    Capsule,
  )
  const text = [
    `Mood: ${r.mood}`,
    `focus: ${r.focus}`,
    `tone: ${r.tone}`,
    r.follow_up.length > 0 && `follow up: ${r.follow_up.join('; ')}`,
  ]
    .filter(Boolean)
    .join('; ')
  const latest = Math.max(...episodes.map((e) => e.occurred_at ?? e.created_at))
  store.createUnit({
    kind: UnitKind.CAPSULE,
    source: 'capsule',
    state: UnitState.VALIDATED,
    occurred_at: latest,
    sensitivity: Math.max(...episodes.map((e) => e.sensitivity)) as UnitRow['sensitivity'],
    evidence: ids,
    payload: { expires_at: latest + CAPSULE_HOURS * 3600, capsule_json: JSON.stringify({ text, ...r }) },
  })
}
