import type { Parsed } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { EventBus } from '../kernel/events'
import type { HomePaths } from '../kernel/home'
import type { JobService } from '../kernel/jobs/jobService'
import type { GraphService } from '../graph/graphService'
import { GENERATE_SHEET, SUMMARIZE_STORY, UPDATE_SHEET } from './storyJobs'
import { SCENARIO } from './scenarioFiles'
import type { StoryService } from './storyService'
import type { StoryRow } from './storyStore'
import { turnsSinceSummary } from './storyScenes'

const SUMMARY_BATCH = 'story-summary:'
const SHEETS_BATCH = 'story-sheets:'

/** The play log a generated sheet is drawn from, at most this many characters (its newest part). */
const LOG_CHARS = 40_000

const labels = {
  ja: { summary: 'あらすじを更新中', sheets: 'キャラクターシートを更新中', generate: 'キャラクターシートを作成中' },
  en: {
    summary: 'Updating the story so far',
    sheets: 'Updating character sheets',
    generate: 'Writing a character sheet',
  },
}

/**
 * The story's memory (seed F-005, F-006, F-011): after each answered turn it checks — in a
 * few indexed steps — whether the path has gone `summarizationTriggerMessages` past its last
 * summary; if so the older turns are folded into the story so far by a background job, and
 * when that lands each character sheet is brought up to date by a job of its own. It also
 * keeps the autosave and the transcript of play.
 */
export class StoryMemory {
  /** Stories with a summary on its way: no second one is queued meanwhile. */
  private readonly pending = new Set<string>()
  /** Per sheets batch: the newest version id before it ran, so its new versions can be announced. */
  private readonly sheetMarks = new Map<string, number>()

  constructor(
    private readonly stories: StoryService,
    private readonly deps: {
      jobs: JobService
      bus: EventBus
      graph: GraphService
      paths: HomePaths
      log: (message: string) => void
    },
  ) {}

  /**
   * A reply landed in a flow: if it is a story's, play resumes there, and the story so far may
   * grow. The reply is kept whatever happens to its copies: their folders were checked before
   * the turn was sent (StoryService.contextFor), and a file that turned bad since (a FIFO at
   * the day's transcript) costs that copy, said in the log, never the reply.
   */
  answered(flowId: string, nodeId: string): void {
    const row = this.stories.answered(flowId, nodeId)
    if (!row) return
    try {
      this.keepLogs(row, nodeId)
    } catch (e) {
      this.deps.log(
        `[story] "${row.name}": the turn is kept, its log copy is not: ${e instanceof Error ? e.message : String(e)}`,
      )
    }
    this.maybeSummarize(row, nodeId, false)
  }

  /** Whether the turns since the last summary call for one now (at most the trigger's count of steps). */
  isDue(row: StoryRow, nodeId: string): boolean {
    const settings = this.stories.files(row).settings()
    const turns = Math.ceil(settings.summarizationTriggerMessages / 2)
    const since = turnsSinceSummary(nodeId, this.stories.summaries(row.id), (id) => this.parents(row, id), turns)
    return since >= turns
  }

  summarize(input: Parsed<'story_summarize'>): { queued: boolean } {
    const row = this.stories.row(input.story_id)
    if (!this.deps.graph.isMember(row.flow_id, input.node_id))
      throw new AppError('not_found', `node ${input.node_id} is not part of story "${row.name}"`)
    return { queued: this.maybeSummarize(row, input.node_id, true) }
  }

  /** Queues a summary of the turns past the last one, keeping `shortTermTurns` word for word. */
  private maybeSummarize(row: StoryRow, nodeId: string, force: boolean): boolean {
    if (this.pending.has(row.id)) return false
    if (!force && !this.isDue(row, nodeId)) return false
    const settings = this.stories.files(row).settings()
    const path = this.stories.orderedPath(row, nodeId)
    const previous = this.stories.summaryAt(row, nodeId)
    const from = previous ? path.indexOf(previous.covered_node_id) + 1 : 0
    const to = path.length - settings.shortTermTurns
    if (to <= from) return false
    const fold = path.slice(from, to)
    const turns = fold.map((id) => {
      const n = this.deps.graph.getNode(id)
      return { prompt: n.prompt, response: n.response }
    })
    const batch = `${SUMMARY_BATCH}${row.id}:${nodeId}`
    this.pending.add(row.id)
    this.deps.jobs.enqueueBatch(batch, labels[row.language].summary, [
      {
        kind: SUMMARIZE_STORY,
        dedupeKey: batch,
        payload: {
          story_id: row.id,
          home: this.deps.paths.home,
          language: row.language,
          node_id: nodeId,
          covered_node_id: fold.at(-1)!,
          covered_turns: to,
          path_turns: path.length,
          previous: previous?.text ?? '',
          turns,
        },
      },
    ])
    return true
  }

  /** A sheet for a name the user chose, drawn from the play up to a node (where play stands by default). */
  generateCharacter(input: Parsed<'story_generate_character'>): { queued: boolean; path: string } {
    const row = this.stories.row(input.story_id)
    const at = input.node_id ?? row.current_node_id
    if (!at || !this.deps.graph.isMember(row.flow_id, at))
      throw new AppError('not_found', `story "${row.name}" has no turn to draw "${input.name}" from`)
    const path = `${SCENARIO.characters}/${sheetFileName(input.name)}`
    const log = this.stories
      .orderedPath(row, at)
      .map((id) => {
        const n = this.deps.graph.getNode(id)
        return [n.prompt.trim() && `> ${n.prompt.trim()}`, n.response.trim()].filter(Boolean).join('\n\n')
      })
      .join('\n\n')
      .slice(-LOG_CHARS)
    const batch = `${SHEETS_BATCH}${row.id}:generate:${path}`
    this.sheetMarks.set(batch, this.newestVersion(row.id))
    this.deps.jobs.enqueueBatch(batch, labels[row.language].generate, [
      {
        kind: GENERATE_SHEET,
        payload: {
          story_id: row.id,
          home: this.deps.paths.home,
          language: row.language,
          path,
          name: input.name,
          node_id: at,
          log,
        },
      },
    ])
    return { queued: true, path }
  }

  /** The worker reports batches as they finish: the cue to show a new summary or new sheet versions. */
  jobFinished(batch: string, failed: boolean): void {
    if (batch.startsWith(SUMMARY_BATCH)) {
      const [storyId, nodeId] = batch.slice(SUMMARY_BATCH.length).split(':') as [string, string]
      this.pending.delete(storyId)
      this.stories.summariesChanged(storyId)
      const row = this.stories.store.get(storyId)
      if (!row) return
      this.stories.emit(storyId)
      const summary = failed ? null : this.stories.summaries(storyId).get(nodeId)
      if (summary) this.updateSheets(row, summary.id)
    } else if (batch.startsWith(SHEETS_BATCH)) {
      const storyId = batch.slice(SHEETS_BATCH.length).split(':')[0]!
      const mark = this.sheetMarks.get(batch) ?? 0
      this.sheetMarks.delete(batch)
      if (!this.stories.store.get(storyId)) return
      for (const version of this.stories.store
        .versions(storyId)
        .filter((v) => v.id > mark)
        .reverse()) {
        this.deps.bus.emit('story_sheet_changed', { story_id: storyId, version })
        if (version.status === 'unreviewed') this.stories.markWritten(storyId, version.path, version.after)
      }
      this.stories.emit(storyId)
    }
  }

  /** One job per character, run side by side by the worker. */
  private updateSheets(row: StoryRow, summaryId: number): void {
    const characters = this.stories.files(row).characters()
    if (characters.length === 0) return
    const batch = `${SHEETS_BATCH}${row.id}:${summaryId}`
    this.sheetMarks.set(batch, this.newestVersion(row.id))
    this.deps.jobs.enqueueBatch(
      batch,
      labels[row.language].sheets,
      characters.map((c) => ({
        kind: UPDATE_SHEET,
        dedupeKey: `${batch}:${c}`,
        payload: {
          story_id: row.id,
          home: this.deps.paths.home,
          language: row.language,
          path: `${SCENARIO.characters}/${c}`,
          summary_id: summaryId,
        },
      })),
    )
  }

  /** `logs/autosaves/autosave.json` (where play resumes, readable) and the day's transcript. */
  private keepLogs(row: StoryRow, nodeId: string): void {
    const node = this.deps.graph.findNode(nodeId)
    if (!node) return
    const files = this.stories.files(row)
    const session = this.stories.session(row, nodeId)
    const savedAt = session.saved_at
    files.write('logs/autosaves/autosave.json', `${JSON.stringify(session, null, 2)}\n`)
    const entry = [
      `## ${savedAt}`,
      node.prompt.trim() && `> ${node.prompt.trim().replace(/\n/g, '\n> ')}`,
      node.response.trim(),
    ]
      .filter(Boolean)
      .join('\n\n')
    files.append(`logs/transcripts/${savedAt.slice(0, 10)}.md`, `${entry}\n\n`)
  }

  private newestVersion(storyId: string): number {
    return this.stories.store.versions(storyId)[0]?.id ?? 0
  }

  private parents(row: StoryRow, id: string): string[] {
    return this.deps.graph.parentsOf(row.flow_id, id)
  }
}

/** A sheet's file name for a character's name: letters and digits of any script kept, the rest `_`. */
export function sheetFileName(name: string): string {
  const base = name
    .trim()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}-]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
  return `${base || 'character'}.md`
}
