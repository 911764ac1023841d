import { randomUUID } from 'node:crypto'
import { basename } from 'node:path'
import { cleanName } from '@shared/contract'
import type { GraphService } from '../../graph/graphService'
import type { EventBus } from '../../kernel/events'
import { ImportFileError } from '../../kernel/importFileError'
import { readJsonArray } from '../../kernel/importJsonArray'
import { MAX_CHATGPT_EXPORT_BYTES, MAX_IMPORT_CONVERSATIONS, MAX_IMPORT_FILE_TEXT } from '../../kernel/importLimits'
import { TimeSlices } from '../../kernel/timeSlices'
import {
  ConversationEnvelope,
  MappingEntry,
  OverLimit,
  pairNodesInSlices,
  planConversation,
  type Conversation,
  type ConversationPlan,
} from './conversationTree'

export interface ChatgptImportReport {
  flows: number
  nodes: number
  skipped: Array<{ conversation: string; reason: string }>
}

/** The marker a flow keeps of the conversation it came from, so a second import skips it. */
export const sourceNote = (id: string) => `Imported from ChatGPT (conversation ${id})`

/**
 * Imports ChatGPT's `conversations.json`: every conversation becomes a flow, every prompt and
 * answer a node, every regeneration and edit a branch. A conversation imported before is
 * skipped; one that cannot be read is reported and the rest go on. Progress goes out as
 * `job_progress`.
 *
 * Every conversation is walked and measured against the import limits before the first is
 * written. A limit of the whole file (conversations in it, text it would make) refuses the
 * file, and nothing is written: past those it is not an export ChatGPT makes. A limit of one
 * conversation (its messages, depth, the text of a field or of the whole) skips that
 * conversation with the reason, as one of the wrong shape is: a user's years of history
 * should not be refused for one odd conversation, and the report says which was left out.
 */
export async function importChatgpt(
  deps: { graph: GraphService; bus: EventBus },
  path: string,
  name = basename(path),
): Promise<ChatgptImportReport> {
  if (/\.zip$/i.test(path))
    throw new ImportFileError(name, null, 'is the export archive: unzip it and choose conversations.json inside')
  const conversations = await readJsonArray(path, {
    name,
    maxBytes: MAX_CHATGPT_EXPORT_BYTES,
    notArray: 'is not a ChatGPT export: expected a list of conversations',
  })
  const total = conversations.length
  if (total > MAX_IMPORT_CONVERSATIONS)
    throw new ImportFileError(name, null, `holds ${total} conversations, over the limit of ${MAX_IMPORT_CONVERSATIONS}`)

  const report: ChatgptImportReport = { flows: 0, nodes: 0, skipped: [] }
  const planned = await planAll(conversations, new Set(deps.graph.listFlows().map((f) => f.description)), report, name)
  const job = `import:chatgpt:${randomUUID()}`
  // Counted in nodes, not conversations: one conversation may hold most of an export.
  const totalNodes = planned.reduce((sum, p) => sum + p.plan.nodes.length, 0)
  let shownAt = 0
  const progress = (n: number, state: 'running' | 'done') => {
    // A few times a second is enough for a status bar; thousands of small conversations would send thousands.
    if (state === 'running' && performance.now() - shownAt < 100) return
    shownAt = performance.now()
    deps.bus.emit('job_progress', { job_id: job, label: 'ChatGPT import', state, done: n, total: totalNodes })
  }
  let written = 0
  for (const { title, id, plan } of planned) {
    const nodes = await pairNodesInSlices(plan)
    // importFlow hands the event loop back between its slices, and so between conversations.
    await deps.graph.importFlow({ name: title, description: id ? sourceNote(id) : 'Imported from ChatGPT' }, nodes, {
      onProgress: (n) => progress(written + n, 'running'),
    })
    written += nodes.length
    report.flows++
    report.nodes += nodes.length
    for (const [what, n] of plan.skipped)
      report.skipped.push({ conversation: title, reason: `${n} ${what} not imported` })
  }
  progress(totalNodes, 'done')
  return report
}

/**
 * Each conversation to import, walked and measured; those skipped go into the report. Throws
 * when the file as a whole would make more text than an import may.
 */
async function planAll(
  conversations: unknown[],
  importedBefore: Set<string>,
  report: ChatgptImportReport,
  name: string,
): Promise<Array<{ title: string; id: string | null; plan: ConversationPlan }>> {
  const planned: Array<{ title: string; id: string | null; plan: ConversationPlan }> = []
  let text = 0
  const slices = new TimeSlices()
  for (const [i, raw] of conversations.entries()) {
    if (slices.due()) await slices.next()
    const title = conversationTitle(raw, i)
    const skip = (reason: string) => report.skipped.push({ conversation: title, reason })
    const parsed = await parseConversation(raw, slices)
    if (typeof parsed === 'string') {
      skip(`not a ChatGPT conversation (${parsed})`)
      continue
    }
    const c = parsed
    const id = c.conversation_id ?? c.id ?? null
    if (id && importedBefore.has(sourceNote(id))) {
      skip('imported before')
      continue
    }
    let plan: ConversationPlan
    try {
      plan = await planConversation(c, slices)
    } catch (e) {
      if (!(e instanceof OverLimit)) throw e
      skip(e.message)
      continue
    }
    if (plan.nodes.length === 0) {
      const loop = plan.skipped.get('messages caught in a loop of parents')
      skip(loop ? `no messages (${loop} caught in a loop of parents)` : 'no messages')
      continue
    }
    text += plan.text
    if (text > MAX_IMPORT_FILE_TEXT)
      throw new ImportFileError(
        name,
        null,
        `would make more than ${MAX_IMPORT_FILE_TEXT} characters of text, the limit for a file (reached at conversation ${i + 1})`,
      )
    planned.push({ title, id, plan })
  }
  return planned
}

/**
 * The conversation checked, its messages one by one in slices of time (one conversation may be
 * most of an export: checked at once, 80,000 messages kept the event loop for most of a second);
 * or where it first goes wrong.
 */
async function parseConversation(raw: unknown, slices: TimeSlices): Promise<Conversation | string> {
  const envelope = ConversationEnvelope.safeParse(raw)
  if (!envelope.success) return envelope.error.issues[0]?.path.join('.') || 'shape'
  const mapping: Conversation['mapping'] = {}
  for (const [id, value] of Object.entries(envelope.data.mapping)) {
    if (slices.due()) await slices.next()
    const entry = MappingEntry.safeParse(value)
    if (!entry.success) return ['mapping', id, ...(entry.error.issues[0]?.path ?? [])].join('.')
    mapping[id] = entry.data
  }
  return { ...envelope.data, mapping }
}

function conversationTitle(raw: unknown, index: number): string {
  const title = (raw as { title?: unknown } | null)?.title
  const clean = typeof title === 'string' ? cleanName(title).trim().slice(0, 200) : ''
  return clean || `ChatGPT conversation ${index + 1}`
}
