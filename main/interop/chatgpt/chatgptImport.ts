import { randomUUID } from 'node:crypto'
import { basename } from 'node:path'
import { z } from 'zod'
import { cleanName } from '@shared/contract'
import type { GraphService } from '../../graph/graphService'
import type { EventBus } from '../../kernel/events'
import { ImportFileError } from '../../kernel/importFileError'
import { readImportFile } from '../../kernel/importFile'
import { Conversation, conversationPairs } from './conversationTree'

/** V8 cannot hold a longer string; a bigger export has to be split before it can be read. */
const MAX_BYTES = 500 * 1024 * 1024
/** Between batches the event loop is handed back, so windows stay live during a long import. */
const BATCH = 20

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
 */
export async function importChatgpt(
  deps: { graph: GraphService; bus: EventBus },
  path: string,
  name = basename(path),
): Promise<ChatgptImportReport> {
  if (/\.zip$/i.test(path))
    throw new ImportFileError(name, null, 'is the export archive: unzip it and choose conversations.json inside')
  const text = await readImportFile(path, { name, maxBytes: MAX_BYTES })
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    throw new ImportFileError(name, null, `is not JSON (${(e as Error).message})`)
  }
  const list = z.array(z.unknown()).safeParse(raw)
  if (!list.success) throw new ImportFileError(name, null, 'is not a ChatGPT export: expected a list of conversations')

  const done = new Set(deps.graph.listFlows().map((f) => f.description))
  const report: ChatgptImportReport = { flows: 0, nodes: 0, skipped: [] }
  const job = `import:chatgpt:${randomUUID()}`
  const total = list.data.length
  const progress = (n: number, state: 'running' | 'done') =>
    deps.bus.emit('job_progress', { job_id: job, label: 'ChatGPT import', state, done: n, total })
  for (let i = 0; i < total; i++) {
    if (i % BATCH === 0) {
      progress(i, 'running')
      await new Promise((r) => setImmediate(r))
    }
    const parsed = Conversation.safeParse(list.data[i])
    const title = conversationTitle(list.data[i], i)
    if (!parsed.success) {
      report.skipped.push({
        conversation: title,
        reason: `not a ChatGPT conversation (${parsed.error.issues[0]?.path.join('.') || 'shape'})`,
      })
      continue
    }
    const c = parsed.data
    const id = c.conversation_id ?? c.id ?? null
    if (id && done.has(sourceNote(id))) {
      report.skipped.push({ conversation: title, reason: 'imported before' })
      continue
    }
    const { nodes, skipped } = conversationPairs(c)
    if (nodes.length === 0) {
      report.skipped.push({ conversation: title, reason: 'no messages' })
      continue
    }
    deps.graph.importFlow({ name: title, description: id ? sourceNote(id) : 'Imported from ChatGPT' }, nodes)
    report.flows++
    report.nodes += nodes.length
    for (const [what, n] of skipped) report.skipped.push({ conversation: title, reason: `${n} ${what} not imported` })
  }
  progress(total, 'done')
  return report
}

function conversationTitle(raw: unknown, index: number): string {
  const title = (raw as { title?: unknown } | null)?.title
  const clean = typeof title === 'string' ? cleanName(title).trim().slice(0, 200) : ''
  return clean || `ChatGPT conversation ${index + 1}`
}
