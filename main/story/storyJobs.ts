import { join } from 'node:path'
import { z } from 'zod'
import { PermanentJobError } from '../kernel/jobs/handlers'
import { isoNow } from '../kernel/time'
import { completeText } from '../llm/completeText'
import type { Db } from '../db/open'
import { jobHandlersWith, type DomainJobContext, type LlmJobHandler } from '../llm/jobContext'
import { resolveModel } from '../llm/models'
import { ScenarioFiles, contentHash } from './scenarioFiles'
import { projectPrompt } from './storyProject'
import { StoryStore } from './storyStore'
import { checkSheet, fillPrompt } from './sheetAnswer'

/** What the story's jobs get besides the worker's context: the story's rows over the worker's connection. */
type StoryJobContext = DomainJobContext<{ store: StoryStore }>

export const SUMMARIZE_STORY = 'story.summarize'
export const UPDATE_SHEET = 'story.update_sheet'
export const GENERATE_SHEET = 'story.generate_sheet'

const Common = z.object({
  story_id: z.string(),
  /** The data home: the worker knows only the database path. */
  home: z.string(),
  language: z.enum(['ja', 'en']),
})

export const SummarizePayload = Common.extend({
  /** Where the summary is made: it belongs to this node. */
  node_id: z.string(),
  /** The newest turn folded in, and how many turns of the path that makes. */
  covered_node_id: z.string(),
  covered_turns: z.number().int().nonnegative(),
  path_turns: z.number().int().nonnegative(),
  /** The story so far being extended (empty for the first), and the turns to fold into it, oldest first. */
  previous: z.string(),
  turns: z.array(z.object({ prompt: z.string(), response: z.string() })),
})

export const UpdateSheetPayload = Common.extend({ path: z.string(), summary_id: z.number().int() })

export const GenerateSheetPayload = Common.extend({
  path: z.string(),
  name: z.string(),
  node_id: z.string().nullable(),
  /** The play log the sheet is drawn from (the active path, oldest first, clipped). */
  log: z.string(),
})

function parse<T extends z.ZodType>(schema: T, kind: string, raw: unknown): z.output<T> {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new PermanentJobError(`bad ${kind} payload: ${parsed.error.message}`)
  return parsed.data
}

/** The story's project, settings and persona, as a job sees them. */
function storyOf(ctx: StoryJobContext, p: z.output<typeof Common>) {
  const { store } = ctx
  const story = store.get(p.story_id)
  if (!story) return null
  const files = new ScenarioFiles(join(p.home, 'scenarios', story.name))
  const lightweight = ctx.persona(story.persona_id)?.lightweight_model
  const model = (purpose: 'summary' | 'character_update') =>
    resolveModel('lightweight', files.settings().models[purpose] ?? lightweight, ctx.env)
  return { store, story, files, model }
}

/**
 * Job `story.summarize` (seed F-005): folds the given turns into the story so far with the
 * project's `summarization_prompt.md` and keeps the result at the node it was made for.
 * Idempotent: a summary already made there for the same turns is not made twice.
 */
export async function summarizeStory(raw: unknown, ctx: StoryJobContext): Promise<void> {
  const p = parse(SummarizePayload, SUMMARIZE_STORY, raw)
  const found = storyOf(ctx, p)
  if (!found) return
  const { store, files, model } = found
  const done = store
    .summaries(p.story_id)
    .some((s) => s.node_id === p.node_id && s.covered_node_id === p.covered_node_id)
  if (done) return
  const turns = p.turns
    .map((t) => [t.prompt.trim() && `> ${t.prompt.trim()}`, t.response.trim()].filter(Boolean).join('\n\n'))
    .join('\n\n---\n\n')
  const prompt = fillPrompt(projectPrompt(files, 'summarization', p.language), {
    summary: p.previous.trim() || (p.language === 'ja' ? '（まだなし）' : '(none yet)'),
    turns,
  })
  const text = (
    await completeText(ctx.llm, model('summary'), [{ role: 'user', content: prompt }], {
      signal: ctx.signal,
      temperature: 0.3,
    })
  ).trim()
  if (!text) throw new PermanentJobError('the model returned an empty summary')
  ctx.atOnce(() => {
    store.addSummary({
      story_id: p.story_id,
      node_id: p.node_id,
      covered_node_id: p.covered_node_id,
      turns: p.covered_turns,
      path_turns: p.path_turns,
      text,
      created_at: isoNow(),
    })
  })
}

/**
 * Job `story.update_sheet` (seed F-006): one character's sheet brought up to date with a new
 * summary. The sheet changes only through a version: a usable answer is written with its
 * `unreviewed` version (the user may accept or revert it); an unusable one, or one that would
 * overwrite an edit made meanwhile, is kept as a `refused` version saying why, and the sheet stays.
 */
export async function updateSheet(raw: unknown, ctx: StoryJobContext): Promise<void> {
  const p = parse(UpdateSheetPayload, UPDATE_SHEET, raw)
  const found = storyOf(ctx, p)
  if (!found) return
  const { store, files, model } = found
  const summary = store.summaries(p.story_id).find((s) => s.id === p.summary_id)
  const before = files.readOrNull(p.path)
  if (!summary || before === null) return
  if (store.versions(p.story_id, p.path).some((v) => v.reason === 'summary' && v.node_id === summary.node_id)) return
  const name = p.path.split('/').at(-1)!.replace(/\.md$/, '')
  const prompt = fillPrompt(projectPrompt(files, 'character_update', p.language), {
    name,
    summary: summary.text,
    sheet: before,
  })
  const answer = await completeText(ctx.llm, model('character_update'), [{ role: 'user', content: prompt }], {
    signal: ctx.signal,
    temperature: 0.2,
  })
  recordSheet(ctx, store, files, {
    p,
    before,
    answer,
    reason: 'summary',
    nodeId: summary.node_id,
    language: p.language,
  })
}

/** Job `story.generate_sheet` (seed F-011): a new sheet for a name the user chose, drawn from the log. */
export async function generateSheet(raw: unknown, ctx: StoryJobContext): Promise<void> {
  const p = parse(GenerateSheetPayload, GENERATE_SHEET, raw)
  const found = storyOf(ctx, p)
  if (!found) return
  const { store, files, model } = found
  const before = files.readOrNull(p.path)
  const prompt = fillPrompt(projectPrompt(files, 'character_generation', p.language), { name: p.name, log: p.log })
  const answer = await completeText(ctx.llm, model('character_update'), [{ role: 'user', content: prompt }], {
    signal: ctx.signal,
    temperature: 0.4,
  })
  recordSheet(ctx, store, files, { p, before, answer, reason: 'generated', nodeId: p.node_id, language: p.language })
}

function recordSheet(
  ctx: StoryJobContext,
  store: StoryStore,
  files: ScenarioFiles,
  r: {
    p: { story_id: string; path: string }
    before: string | null
    answer: string
    reason: 'summary' | 'generated'
    nodeId: string | null
    language: 'ja' | 'en'
  },
): void {
  const checked = checkSheet(r.answer, r.before, r.language)
  ctx.atOnce(() => {
    const now = files.readOrNull(r.p.path)
    const base = { story_id: r.p.story_id, path: r.p.path, reason: r.reason, node_id: r.nodeId, created_at: isoNow() }
    if (!checked.ok) {
      store.addVersion({ ...base, status: 'refused', before: now, after: r.answer, note: checked.why })
      return
    }
    if (now !== null && r.before !== null && contentHash(now) !== contentHash(r.before)) {
      const note =
        r.language === 'ja'
          ? '更新中にシートが編集されたため適用しませんでした'
          : 'the sheet was edited while the update ran, so it was not applied'
      store.addVersion({ ...base, status: 'refused', before: now, after: checked.sheet, note })
      return
    }
    if (now !== null && now === checked.sheet) return // nothing changed: no version
    files.write(r.p.path, checked.sheet)
    store.addVersion({ ...base, status: 'unreviewed', before: now, after: checked.sheet, note: '' })
  })
}

/** The story domain's background jobs, run by the job worker over its own connection. */
export function storyJobHandlers(db: Db): Record<string, LlmJobHandler> {
  return jobHandlersWith(
    db,
    { store: new StoryStore(db) },
    { [SUMMARIZE_STORY]: summarizeStory, [UPDATE_SHEET]: updateSheet, [GENERATE_SHEET]: generateSheet },
  )
}
