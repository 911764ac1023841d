import { z } from 'zod'
import { PurposeDefaults } from '@shared/contract'
import { SUMMARY_TAGS_MAX } from '@shared/contract'
import { PermanentJobError } from '../kernel/jobs/handlers'
import type { Db } from '../db/open'
import { jobHandlersWith, type DomainJobContext, type LlmJobHandler } from '../llm/jobContext'
import { resolveModel } from '../llm/models'
import { GraphStore } from './graphStore'
import { isoNow } from '../kernel/time'
import { completeText } from '../llm/completeText'

/** What the graph's jobs get besides the worker's context: the graph's rows over the worker's connection. */
type JobContext = DomainJobContext<{ store: GraphStore }>

/** The graph's background jobs (node summaries), run by the job worker over its own connection. */
export function graphJobHandlers(db: Db): Record<string, LlmJobHandler> {
  return jobHandlersWith(db, { store: new GraphStore(db) }, { 'graph.summarize': summarizeNode })
}

/** `force`: rebuild even an up-to-date summary (the user asked for this node's). */
const Payload = z.object({ node_id: z.string(), language: z.enum(['ja', 'en']), force: z.boolean().optional() })

/** The seed's §7.2 prompt; the output language follows the UI's. */
const prompts = {
  ja: (prompt: string, response: string) => `あなたは会話ノードの要約とタグ付けを行う専門家です。
以下のプロンプトと回答のペアを分析し、簡潔な要約とタグを生成してください。

[プロンプト]
${prompt}

[回答]
${response}

以下の形式で出力してください：
要約: [30-50単語程度の簡潔な説明]
タグ: [3-7個の重要キーワードをカンマ区切り]`,
  en: (prompt: string, response: string) => `You summarise and tag conversation nodes.
Analyse the prompt and reply below and write a short summary and tags.

[Prompt]
${prompt}

[Reply]
${response}

Answer in exactly this form:
Summary: [a concise description of about 30-50 words]
Tags: [3-7 key words, separated by commas]`,
}

/**
 * Job `graph.summarize`: summary and tags for one node with the lightweight model. Idempotent:
 * a node already summarised, deleted, or edited while the model was thinking is left as it is
 * (an edit keeps it stale, so the next build picks it up).
 */
async function summarizeNode(raw: unknown, ctx: JobContext): Promise<void> {
  const payload = Payload.safeParse(raw)
  if (!payload.success) throw new PermanentJobError(`bad graph.summarize payload: ${payload.error.message}`)
  const { node_id: id, language, force } = payload.data
  const { store } = ctx
  const node = store.node(id)
  if (!node || (!node.metadata.summary.updated && !force)) return

  const defaults = summaryDefaults(ctx)
  const ref = resolveModel('lightweight', personaModel(ctx, id), ctx.env, defaults.model)
  const text = await completeText(
    ctx.llm,
    ref,
    [{ role: 'user', content: prompts[language](node.prompt, node.response) }],
    {
      temperature: defaults.temperature ?? 0.2,
      maxTokens: defaults.max_tokens ?? 400,
      signal: ctx.signal,
    },
  )
  const { summary, tags } = parseSummary(text)

  const written = ctx.atOnce(() => {
    const now = store.node(id)
    if (!now || now.prompt !== node.prompt || now.response !== node.response) return false
    store.setSummary(id, summary, isoNow())
    // The user's own tags stay; the model's are added after them.
    store.setTags(id, [...new Set([...now.metadata.tags, ...tags])])
    return true
  })
  if (written) ctx.nodesChanged([id])
}

/** Reads "要約: … / タグ: a, b" (or Summary/Tags); a reply without labels becomes the summary as it is. */
export function parseSummary(text: string): { summary: string; tags: string[] } {
  const summary = /^\s*(?:要約|summary)\s*[:：]\s*(.+)$/im.exec(text)?.[1]?.trim()
  const tagLine = /^\s*(?:タグ|tags)\s*[:：]\s*(.+)$/im.exec(text)?.[1] ?? ''
  const tags = tagLine
    .replace(/^\[|\]$/g, '')
    .split(/[,、，]/)
    .map((t) => t.trim().replace(/^#/, ''))
    .filter((t) => t.length > 0 && t.length <= 64)
    .slice(0, SUMMARY_TAGS_MAX)
  return { summary: (summary ?? text.trim()).replace(/^\[|\]$/g, '').slice(0, 2000), tags }
}

/** The lightweight model of a persona whose conversation holds the node, if any has one. */
function personaModel(ctx: JobContext, nodeId: string): string | null {
  for (const id of ctx.store.personasOfNode(nodeId)) {
    const model = ctx.persona(id)?.lightweight_model
    if (model) return model
  }
  return null
}

/** The summarisation defaults chosen in the settings. */
function summaryDefaults(ctx: JobContext): PurposeDefaults {
  const parsed = PurposeDefaults.safeParse(ctx.setting('summary'))
  return parsed.success ? parsed.data : { model: null, temperature: null, max_tokens: null }
}
