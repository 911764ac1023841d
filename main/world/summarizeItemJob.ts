import { z } from 'zod'
import { PermanentJobError } from '../kernel/jobs/handlers'
import type { DomainJobContext } from '../llm/jobContext'
import { resolveModel } from '../llm/models'
import type { ContentPart } from '../llm/types'
import { ItemFiles } from './files/itemFiles'
import type { WorldStore } from './worldStore'
import { completeText } from '../llm/completeText'

export const SUMMARIZE_ITEM = 'world.summarize_item'

/** What the world's jobs get besides the worker's context: the world's rows over the worker's connection (worldJobs.ts). */
export type WorldJobContext = DomainJobContext<{ store: WorldStore }>

export const SummarizePayload = z.object({
  item_id: z.string(),
  /** The data home: the worker knows only the database path. */
  home: z.string(),
  language: z.enum(['ja', 'en']),
  persona_id: z.string().nullable(),
  /** The document version this summary is for; null for pictures. */
  version: z.number().int().nullable(),
})
export type SummarizePayload = z.infer<typeof SummarizePayload>

/** The seed's limit, in characters. */
export const SUMMARY_MAX = 300
/** Enough of a long document for a summary, without sending megabytes. */
const DOCUMENT_PROMPT_CHARS = 60_000

/** The seed's prompts (Japanese), and the same in English for an English UI. */
const prompts = {
  ja: {
    picture:
      '以下の画像を詳しく説明するのではなく、内容を理解するための要点を300文字以内の日本語で1〜2文にまとめてください。',
    document: '以下の文書の内容を300文字以内の日本語で要約してください。要点を簡潔にまとめてください。',
  },
  en: {
    picture:
      'Do not describe the image below in detail; sum up what it is about in one or two sentences of English, at most 300 characters.',
    document: 'Summarise the document below in English in at most 300 characters. Keep to the key points.',
  },
}

/**
 * Job `world.summarize_item`: the ≤300-character summary of a picture (the persona's
 * lightweight vision model) or a document (its lightweight model), written beside the file
 * and into DESCRIPTION. Idempotent, and a summary of an outdated document version is dropped:
 * the job for the newer version follows.
 */
export async function summarizeItem(raw: unknown, ctx: WorldJobContext): Promise<void> {
  const parsed = SummarizePayload.safeParse(raw)
  if (!parsed.success) throw new PermanentJobError(`bad ${SUMMARIZE_ITEM} payload: ${parsed.error.message}`)
  const p = parsed.data
  const { store } = ctx
  const item = store.item(p.item_id)
  if (!item || !item.file_path || item.type === 'object') return
  if (p.version !== null && store.latestVersion(item.id) !== p.version) return
  const files = new ItemFiles(p.home)
  const persona = ctx.persona(p.persona_id)

  let content: ContentPart[]
  let ref
  if (item.type === 'picture') {
    ref = resolveModel('lightweight_vision', persona?.lightweight_vision_model, ctx.env)
    const mime = typeof item.state.mime_type === 'string' ? item.state.mime_type : 'image/png'
    content = [
      { type: 'text', text: prompts[p.language].picture },
      { type: 'image', mime, data_base64: files.readBytes(item.file_path).toString('base64') },
    ]
  } else {
    ref = resolveModel('lightweight', persona?.lightweight_model, ctx.env)
    const text = files.readText(item.file_path).slice(0, DOCUMENT_PROMPT_CHARS)
    content = [{ type: 'text', text: `${prompts[p.language].document}\n\n${text}` }]
  }

  const reply = await completeText(ctx.llm, ref, [{ role: 'user', content }], {
    temperature: 0.2,
    maxTokens: 600,
    signal: ctx.signal,
  })
  const summary = clampSummary(reply)
  if (!summary) throw new Error('the model returned an empty summary')

  ctx.atOnce(() => {
    const now = store.item(item.id)
    if (!now) return
    if (p.version !== null && store.latestVersion(item.id) !== p.version) return
    files.writeSummary(item.file_path!, summary)
    // Its own field: the words the user typed as the description stay as they were.
    store.updateItem(item.id, { summary, summaryStatus: 'ready' })
  })
}

/** At most 300 characters (code points, so a Japanese sentence is never cut mid-character). */
export function clampSummary(text: string): string {
  const chars = [...text.trim().replace(/^(要約|summary)\s*[:：]\s*/i, '')]
  return chars.length <= SUMMARY_MAX ? chars.join('') : chars.slice(0, SUMMARY_MAX - 1).join('') + '…'
}
