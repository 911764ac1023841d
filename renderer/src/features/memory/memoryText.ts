import type { MemoryUnitKind } from '@shared/contract'

/** The payload fields a person writes, by kind: what "Edit" offers and old versions show. */
export const textFields: Record<MemoryUnitKind, readonly string[]> = {
  episode: ['user_text', 'reply_text', 'image_summary'],
  fact: ['predicate', 'object_text'],
  summary: ['summary_text'],
  persona: ['persona_text'],
  contract: ['contract_text'],
  capsule: ['capsule_json'],
  loop: ['loop_text'],
}

/** Fields shown in the editor: always the kind's main ones, optional ones only when they hold text. */
export function editableFields(kind: MemoryUnitKind, payload: Record<string, unknown>): string[] {
  return textFields[kind].filter((f) => f !== 'image_summary' || typeof payload[f] === 'string')
}

/** The text fields of a payload (a version's snapshot or the current one), in the kind's order. */
export function payloadTexts(kind: MemoryUnitKind, payload: Record<string, unknown>): Array<[string, string]> {
  return textFields[kind].flatMap((f) => {
    const v = payload[f]
    return typeof v === 'string' && v !== '' ? [[f, v] as [string, string]] : []
  })
}

/** Only the fields that differ from the payload: the edit's patch. */
export function changedFields(
  payload: Record<string, unknown>,
  draft: Record<string, string>,
): Record<string, string> | null {
  const patch = Object.fromEntries(Object.entries(draft).filter(([k, v]) => (payload[k] ?? '') !== v))
  return Object.keys(patch).length > 0 ? patch : null
}

/** A one-line preview of a unit's text. */
export function shortText(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** `<input type=date>` value (local day) ↔ UTC epoch seconds at that day's local midnight. */
export function dayToEpoch(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return null
  return Math.floor(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime() / 1000)
}

export function epochToDay(epoch: number | null): string {
  if (epoch === null) return ''
  const d = new Date(epoch * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** The local midnight after the given day: the exclusive end of a "to" day. */
export function nextDay(epoch: number): number {
  const d = new Date(epoch * 1000)
  return Math.floor(new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() / 1000)
}

export function previousDay(epoch: number): number {
  const d = new Date(epoch * 1000)
  return Math.floor(new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1).getTime() / 1000)
}

export function formatTime(epoch: number | null, language: string): string {
  return epoch === null ? '' : new Date(epoch * 1000).toLocaleString(language)
}

/**
 * The reasons the app itself writes on a unit's versions (main/memory), as i18n keys with
 * their values; a reason typed by the user is shown as written (null here).
 */
export function reasonKey(reason: string): { key: string; values?: Record<string, string> } | null {
  const fixed: Record<string, string> = {
    created: 'created',
    reflect: 'reflect',
    'edited by the user': 'edited',
    pinned: 'pinned',
    unpinned: 'unpinned',
    archived: 'archived',
    unarchived: 'unarchived',
    'promoted to global': 'global',
    'made branch-local': 'local',
    'more evidence': 'moreEvidence',
    resummarised: 'resummarised',
  }
  if (fixed[reason]) return { key: `memory.reasons.${fixed[reason]}` }
  const numbered = /^(superseded by fact|resolved by episode) (\d+)$/.exec(reason)
  if (numbered)
    return {
      key: `memory.reasons.${numbered[1] === 'superseded by fact' ? 'superseded' : 'resolved'}`,
      values: { id: numbered[2]! },
    }
  const sensitivity = /^sensitivity (normal|private|secret)$/.exec(reason)
  if (sensitivity) return { key: 'memory.reasons.sensitivity', values: { level: sensitivity[1]! } }
  return null
}

/** One piece of a pack item's `why` (main/memory/pack/packBuilder.ts) as an i18n key and values. */
export interface WhyPart {
  key: string | null
  values?: Record<string, string>
  /** The text as written, when no key fits. */
  raw: string
}

const whyFixed: Record<string, string> = {
  'always injected': 'always',
  'latest short-term state': 'capsule',
  'open loop': 'loop',
  pinned: 'pinned',
  'at the time named': 'time',
  'from another conversation': 'elsewhere',
}
const sections = new Set(['persona', 'contract', 'capsule', 'loops', 'facts', 'summaries', 'episodes'])

/** Splits "keyword #1 (2.31), vector #4 (0.52); linked to Hana (value 0.812)" into translatable parts. */
export function whyParts(why: string): { parts: WhyPart[]; value: string | null } {
  const valued = /^(.*) \(value ([\d.]+)\)$/.exec(why)
  const body = valued ? valued[1]! : why
  const parts = body
    .split(/[;,] /)
    .filter(Boolean)
    .map((raw): WhyPart => {
      if (whyFixed[raw]) return { key: `memory.whyParts.${whyFixed[raw]}`, raw }
      if (sections.has(raw)) return { key: `memory.section.${raw}`, raw }
      const ranked = /^(keyword|words|vector|meaning|sentence) #(\d+) \(([-\d.]+)\)$/.exec(raw)
      if (ranked) return { key: `memory.whyParts.${ranked[1]}`, values: { rank: ranked[2]!, score: ranked[3]! }, raw }
      const linked = /^linked to (.+)$/.exec(raw)
      if (linked) return { key: 'memory.whyParts.linked', values: { name: linked[1]! }, raw }
      const spoken = /^spoken by (.+)$/.exec(raw)
      if (spoken) return { key: 'memory.whyParts.spoken', values: { name: spoken[1]! }, raw }
      const next = /^next to #(\d+)$/.exec(raw)
      if (next) return { key: 'memory.whyParts.next', values: { id: next[1]! }, raw }
      return { key: null, raw }
    })
  return { parts, value: valued ? valued[2]! : null }
}
