import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import {
  StorySettings,
  type Parsed,
  type SheetVersion,
  type Story,
  type StoryFile,
  type StorySave,
  type StorySummary,
} from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Db } from '../db/open'
import { activePath } from '../graph/dag'
import type { GraphService } from '../graph/graphService'
import type { EventBus } from '../kernel/events'
import type { HomePaths } from '../kernel/home'
import { uiLanguage, type Language } from '../kernel/language'
import { isoNow } from '../kernel/time'
import type { FlowStory } from '../chat/chatService'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { SCENARIO, ScenarioFiles, contentHash } from './scenarioFiles'
import { markdownBook } from '../lorebook/formats/markdownBook'
import type { EngineBook } from '../lorebook/loreEngine'
import { createProject, latestSummaryJson } from './storyProject'
import { StoryStore, type StoryRow } from './storyStore'
import { ScenarioParts, storyContext, summaryAbove } from './storyScenes'
import { checkStoryName } from './storyName'
import { PlayTrail } from './playTrail'

export interface StoryDeps {
  db: Db
  bus: EventBus
  paths: HomePaths
  graph: GraphService
  personas: PersonaService
  settings: SettingsService
  log: (message: string) => void
}

/** The folders a played turn's copies go to (the autosave, the day's transcript). */
const LOG_FOLDERS = ['logs/autosaves', 'logs/transcripts'] as const

/** Turns a log keeps word for word at most: with no summary yet, a long path is not written out each turn. */
const SESSION_TURNS = 50

const gmText = {
  ja: (name: string) =>
    `あなたは対話型ストーリー「${name}」のゲームマスターです。シナリオに従って場面を語り、主人公以外の登場人物を演じてください。`,
  en: (name: string) =>
    `You are the game master of the interactive story "${name}". Narrate the scenes and play every character but the player's, following the scenario.`,
}

/**
 * Story mode's projects and play (NovelADV seed): scenario files on disk as the source of
 * truth, a flow and a game-master persona to play them, where play stands, saves, undo, and
 * the story so far per node. Background work (summaries, sheets) lives in `StoryMemory`.
 */
export class StoryService {
  readonly store: StoryStore
  private readonly scenario = new ScenarioParts()
  /** Summaries per story, by the node they were made at (the newest there); dropped when one is added. */
  private readonly summaryCache = new Map<string, Map<string, StorySummary>>()
  /** The hash of each scenario file as the app last read or wrote it: anything else is an outside edit. */
  readonly knownHashes = new Map<string, string>()
  private readonly trail: PlayTrail

  constructor(private readonly deps: StoryDeps) {
    this.store = new StoryStore(deps.db)
    this.trail = new PlayTrail(deps.graph)
  }

  // ---- projects

  init(input: Parsed<'story_init'>): Story {
    const language = input.language ?? this.language()
    const persona = input.persona_id ? this.deps.personas.get(input.persona_id) : null
    const files = createProject(this.deps.paths.scenarios, {
      name: input.name,
      template: input.template,
      language,
      takenNames: this.takenNames(),
    })
    try {
      const name = checkStoryName(input.name)
      const story = this.start({
        name,
        files,
        language,
        template: input.template,
        persona: persona ? { id: persona.id, own: false } : null,
      })
      this.playOpening(story, files)
      return this.emit(story.id)
    } catch (e) {
      rmSync(files.root, { recursive: true, force: true })
      throw e
    }
  }

  /** The rows and the flow of a new project whose files exist; a game master is made unless a persona is given. */
  private start(input: {
    name: string
    files: ScenarioFiles
    language: Language
    template: Story['template']
    persona: { id: string; own: boolean } | null
  }): StoryRow {
    const personaId =
      input.persona?.id ??
      this.deps.personas.create({
        name: input.language === 'ja' ? `${input.name}のゲームマスター` : `${input.name} game master`,
        persona_text: gmText[input.language](input.name),
      }).id
    const flow = this.deps.graph.createFlow({
      name: input.name,
      description: input.language === 'ja' ? 'ストーリー' : 'Story',
      persona_id: personaId,
    })
    const now = isoNow()
    const row: StoryRow = {
      id: randomUUID(),
      name: input.name,
      flow_id: flow.id,
      persona_id: personaId,
      own_persona: input.persona?.own === false ? 0 : 1,
      language: input.language,
      template: input.template,
      current_node_id: null,
      redo_node_id: null,
      created_at: now,
      updated_at: now,
    }
    this.store.insert(row)
    return row
  }

  /** The opening scene as the story's first node, where play starts. */
  private playOpening(story: StoryRow, files: ScenarioFiles): string {
    const opening = files.readOrNull(SCENARIO.opening) ?? ''
    const root = this.deps.graph.createNode({ flow_id: story.flow_id, prompt: '', response: openingText(opening) })
    this.store.setPosition(story.id, { current: root.id, redo: null }, isoNow())
    this.trail.remember(story.id, story.flow_id, root.id)
    return root.id
  }

  private takenNames(): string[] {
    return this.store.list().map((r) => r.name)
  }

  /**
   * Stories that stand nowhere, put right at start-up (when this process is alone on the home):
   * a kill during story_init between the story's row and its opening scene. Such a story is
   * completed, not removed: its project folder was whole before its row was written (it is
   * moved into place last), and the user may have edited it since; only the opening scene is
   * missing, and it is made from the project's own opening file. Returns how many there were.
   */
  completeHalfMade(): number {
    let completed = 0
    for (const row of this.store.list()) {
      if (row.current_node_id !== null) continue
      try {
        this.standing(row)
        completed++
      } catch (e) {
        this.deps.log(`[story] "${row.name}" still stands nowhere: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
    return completed
  }

  list(): Story[] {
    return this.store.list().map((r) => this.toStory(r))
  }

  get(id: string): { story: Story; files: StoryFile[]; summary: StorySummary | null } {
    const row = this.row(id)
    const story = this.toStory(row)
    const files = this.files(row).list()
    for (const f of files) this.knownHashes.set(this.fileKey(row.id, f.path), f.hash)
    const summary = row.current_node_id ? this.summaryAt(row, row.current_node_id) : null
    return { story, files, summary }
  }

  /** An IF route (F-002): a new project with the scenario copied; from a node, the path up to it comes along. */
  fork(input: Parsed<'story_fork'>): Story {
    const from = this.row(input.story_id)
    if (input.from_node_id) this.requireNode(from, input.from_node_id)
    const files = createProject(this.deps.paths.scenarios, {
      name: input.name,
      template: from.template,
      language: from.language,
      scenarioFrom: this.files(from),
      takenNames: this.takenNames(),
    })
    try {
      const own = from.own_persona === 1
      const story = this.start({
        name: checkStoryName(input.name),
        files,
        language: from.language,
        template: from.template,
        persona: own ? null : { id: from.persona_id, own: false },
      })
      if (own) this.copyPersona(from.persona_id, story.persona_id)
      const at = input.from_node_id ?? null
      if (at) {
        // The path is shared, not copied (as add_node_to_flow shares): the fork goes on from there on its own.
        const path = this.orderedPath(from, at)
        this.deps.graph.rebuildFlow({ flow_id: story.flow_id, node_ids: path })
        const summary = this.summaryAt(from, at)
        if (summary) this.store.copySummary(story.id, summary)
        this.store.setPosition(story.id, { current: at, redo: null }, isoNow())
      } else this.playOpening(story, files)
      return this.emit(story.id)
    } catch (e) {
      rmSync(files.root, { recursive: true, force: true })
      throw e
    }
  }

  // ---- scenario files

  readFile(input: Parsed<'story_read_file'>): { path: string; content: string; hash: string } {
    const row = this.row(input.story_id)
    const content = this.files(row).read(input.path)
    const hash = contentHash(content)
    this.knownHashes.set(this.fileKey(row.id, input.path), hash)
    return { path: input.path, content, hash }
  }

  /**
   * Writes a scenario file if it is still what the editor started from. A sheet's change is
   * kept as a version, so it can be reverted like the model's changes.
   */
  updateFile(input: Parsed<'story_update_file'>): StoryFile {
    const row = this.row(input.story_id)
    const files = this.files(row)
    const now = files.readOrNull(input.path)
    const nowHash = now === null ? null : contentHash(now)
    if (nowHash !== input.base_hash)
      throw new AppError(
        'conflict',
        now === null
          ? `${input.path} was deleted since you opened it`
          : input.base_hash === null
            ? `${input.path} exists already`
            : `${input.path} was changed outside the editor since you opened it: reload it to see both versions`,
        {
          key:
            now === null
              ? 'file_deleted_since'
              : input.base_hash === null
                ? 'file_created_since'
                : 'file_changed_since',
          params: { path: input.path },
        },
      )
    const written = files.write(input.path, input.content)
    this.knownHashes.set(this.fileKey(row.id, input.path), written.hash)
    if (input.path.startsWith(`${SCENARIO.characters}/`) && now !== input.content) {
      const version = this.store.addVersion({
        story_id: row.id,
        path: input.path,
        reason: 'user',
        status: 'accepted',
        before: now,
        after: input.content,
        note: '',
        node_id: null,
        created_at: isoNow(),
      })
      this.deps.bus.emit('story_sheet_changed', { story_id: row.id, version })
    }
    this.deps.bus.emit('story_file_changed', { story_id: row.id, path: input.path, hash: written.hash, source: 'app' })
    this.emit(row.id)
    return written
  }

  // ---- where play stands

  setPosition(input: Parsed<'story_set_position'>): Story {
    const row = this.row(input.story_id)
    this.requireNode(row, input.node_id)
    if (row.current_node_id !== input.node_id) this.moveTo(row, input.node_id, null)
    return this.emit(row.id)
  }

  /**
   * Where a player's turn goes: the story's own flow, below the node it names or where play
   * stands. A turn sent for another conversation (the window showed another one) is refused.
   */
  turnTarget(input: Parsed<'story_send'>): { flow_id: string; parent_id: string | null } {
    const row = this.row(input.story_id)
    if (input.flow_id !== row.flow_id)
      throw new AppError(
        'conflict',
        row.language === 'ja'
          ? `このターンは物語「${row.name}」の会話に送られていません。物語を開き直してから送ってください`
          : `this turn was not sent to the conversation of the story "${row.name}"; open the story again and send it there`,
      )
    const parent = input.parent_id ?? row.current_node_id
    if (parent) this.requireNode(row, parent)
    return { flow_id: row.flow_id, parent_id: parent }
  }

  /** Play answered a node: it is where the story resumes (the autosave). */
  answered(flowId: string, nodeId: string): StoryRow | null {
    const row = this.store.byFlow(flowId)
    if (!row) return null
    this.moveTo(row, nodeId, null)
    this.emit(row.id)
    return this.store.get(row.id)
  }

  undo(storyId: string): Story {
    const row = this.row(storyId)
    const at = row.current_node_id
    const parent = at ? this.deps.graph.parentsOf(row.flow_id, at)[0] : undefined
    if (!at || !parent)
      throw new AppError(
        'conflict',
        row.language === 'ja'
          ? 'これ以上戻せません（物語の始まりです）'
          : 'nothing to undo: this is where the story begins',
      )
    this.moveTo(row, parent, at)
    return this.emit(row.id)
  }

  redo(storyId: string): Story {
    const row = this.row(storyId)
    const next = row.redo_node_id
    if (!next || !row.current_node_id || !this.deps.graph.childrenOf(row.flow_id, row.current_node_id).includes(next))
      throw new AppError('conflict', row.language === 'ja' ? 'やり直せる操作がありません' : 'nothing to redo')
    this.moveTo(row, next, null)
    return this.emit(row.id)
  }

  /**
   * The seed keeps manual saves as JSON under logs/archives/ too: a copy outside the database.
   * A save is both or neither: the folder is checked first (a link there refuses the save with
   * the reason, and nothing is stored), and the row is committed only once its file is written,
   * so a save is never kept and reported failed. A crash between the two leaves at most a file
   * with no row (a readable copy nobody lists), never a row the user was told failed.
   */
  save(input: Parsed<'story_save'>): StorySave {
    const row = this.row(input.story_id)
    this.requireNode(row, input.node_id)
    const files = this.files(row)
    files.requireFolder('logs/archives')
    const session = this.session(row, input.node_id)
    const save = this.deps.db
      .transaction(() => {
        const added = this.store.addSave({
          story_id: row.id,
          node_id: input.node_id,
          name: input.name,
          created_at: isoNow(),
        })
        const stamp = added.created_at.replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
        files.write(
          `logs/archives/${stamp}-save-${added.id}.json`,
          `${JSON.stringify({ save: input.name, ...session }, null, 2)}\n`,
        )
        return added
      })
      .immediate()
    return this.describeSave(row, save)
  }

  saves(storyId: string): StorySave[] {
    const row = this.row(storyId)
    return this.store
      .saves(row.id)
      .filter((s) => this.deps.graph.isMember(row.flow_id, s.node_id))
      .map((s) => this.describeSave(row, s))
  }

  load(input: Parsed<'story_load'>): Story {
    const row = this.row(input.story_id)
    const save = this.store.save(row.id, input.save_id)
    if (!save) throw new AppError('not_found', `save ${input.save_id} not found in story "${row.name}"`)
    this.requireNode(row, save.node_id)
    this.moveTo(row, save.node_id, null)
    return this.emit(row.id)
  }

  /**
   * Play at a node as the seed's SessionData: the story so far, the turns since it word for word
   * (a summary's short-term memory), and where it stands. Readable on its own, for the logs.
   */
  session(row: StoryRow, nodeId: string) {
    const summary = this.summaryAt(row, nodeId)
    const history: Array<{ role: 'user' | 'assistant'; content: string }> = []
    let at: string | undefined = nodeId
    for (let turns = 0; at && at !== summary?.covered_node_id && turns < SESSION_TURNS; turns++) {
      const n = this.deps.graph.getNode(at)
      history.unshift({ role: 'assistant', content: n.response })
      if (n.prompt) history.unshift({ role: 'user', content: n.prompt })
      at = this.deps.graph.parentsOf(row.flow_id, at)[0]
    }
    return { story: row.name, node_id: nodeId, saved_at: isoNow(), summary: summary?.text ?? '', history }
  }

  // ---- the story so far

  /** The summary that holds at a node: the newest made on its path. */
  summaryAt(row: StoryRow, nodeId: string): StorySummary | null {
    return summaryAbove([nodeId], this.summaries(row.id), (id) => this.deps.graph.parentsOf(row.flow_id, id))
  }

  summaries(storyId: string): Map<string, StorySummary> {
    let byNode = this.summaryCache.get(storyId)
    if (!byNode) {
      byNode = new Map()
      for (const s of this.store.summaries(storyId)) {
        const there = byNode.get(s.node_id)
        if (!there || s.turns >= there.turns) byNode.set(s.node_id, s)
      }
      this.summaryCache.set(storyId, byNode)
    }
    return byNode
  }

  /** A summary was added (by the worker): read them again, and mirror the active branch's in the project. */
  summariesChanged(storyId: string): void {
    this.summaryCache.delete(storyId)
    const row = this.store.get(storyId)
    if (row) this.writeLatestSummary(row)
  }

  /**
   * What story mode adds to a turn on a flow (null when no story plays it), its row read once
   * for the turn: chat (the one context builder) asks for its context, its lorebook and its model.
   */
  storyOf(flowId: string): FlowStory | null {
    const row = this.store.byFlow(flowId)
    if (!row) return null
    return {
      context: (parentIds) => this.contextOf(row, parentIds),
      chatModel: () => this.files(row).settings().models.chat ?? null,
      lore: () => this.loreOf(row),
    }
  }

  /**
   * Story mode's part of a flow's context. A reply is the work; the autosave and the transcript
   * are its copies. Their folders are checked here, before the model is asked, so a link there
   * fails the turn with the reason and nothing sent or kept — never a full reply marked failed
   * because its copy could not be written.
   */
  private contextOf(row: StoryRow, parentIds: readonly string[]) {
    const files = this.files(row)
    for (const folder of LOG_FOLDERS) files.requireFolder(folder)
    const summary = summaryAbove(parentIds, this.summaries(row.id), (id) => this.deps.graph.parentsOf(row.flow_id, id))
    return storyContext(this.scenario.parts(files), summary)
  }

  /** The story and its scenario's lorebook/ folder as a book (null when the folder has no entries). */
  private loreOf(row: StoryRow): { storyId: string; book: EngineBook | null } {
    const files = this.files(row)
    const entries = files
      .lorebook()
      .map((name) => [name, files.read(`${SCENARIO.lorebook}/${name}`)] as [string, string])
    if (entries.length === 0) return { storyId: row.id, book: null }
    const version = contentHash(entries.map(([name, text]) => `${name}\u0000${text}`).join('\u0000'))
    return {
      storyId: row.id,
      book: markdownBook(`story:${row.id}`, `${row.name}: ${SCENARIO.lorebook}`, entries, version),
    }
  }

  // ---- sheets

  versions(input: Parsed<'story_sheet_versions'>): SheetVersion[] {
    return this.store.versions(this.row(input.story_id).id, input.path)
  }

  /** Accepts a change, or reverts it: the sheet gets its words back, as a version of its own. */
  review(input: Parsed<'story_sheet_review'>): SheetVersion {
    const row = this.row(input.story_id)
    const version = this.store.version(row.id, input.version_id)
    if (!version) throw new AppError('not_found', `version ${input.version_id} not found in story "${row.name}"`)
    if (input.action === 'accept') {
      if (version.status !== 'unreviewed')
        throw new AppError('conflict', `version ${version.id} is ${version.status}`, { key: 'version_reviewed' })
      this.store.setVersionStatus(version.id, 'accepted')
      return this.store.version(row.id, version.id)!
    }
    if (version.status === 'reverted' || version.status === 'refused')
      throw new AppError('conflict', `version ${version.id} is ${version.status}: there is nothing to revert`, {
        key: 'version_not_revertible',
      })
    const files = this.files(row)
    const now = files.readOrNull(version.path)
    if (now !== version.after)
      throw new AppError('conflict', `${version.path} changed after this version: revert the newer change first`, {
        key: 'version_changed_since',
        params: { path: version.path },
      })
    const restored = version.before ?? ''
    if (version.before === null) rmSync(files.resolve(version.path), { force: true })
    else files.write(version.path, restored)
    this.deps.db
      .transaction(() => {
        this.store.setVersionStatus(version.id, 'reverted')
        this.store.addVersion({
          story_id: row.id,
          path: version.path,
          reason: 'revert',
          status: 'accepted',
          before: now,
          after: restored,
          note: `#${version.id}`,
          node_id: version.node_id,
          created_at: isoNow(),
        })
      })
      .immediate()
    const reverted = this.store.version(row.id, version.id)!
    this.knownHashes.set(this.fileKey(row.id, version.path), contentHash(restored))
    this.deps.bus.emit('story_sheet_changed', { story_id: row.id, version: reverted })
    this.deps.bus.emit('story_file_changed', {
      story_id: row.id,
      path: version.path,
      hash: contentHash(restored),
      source: 'app',
    })
    this.emit(row.id)
    return reverted
  }

  // ---- helpers shared with the story's memory and export

  row(id: string): StoryRow {
    const row = this.store.get(id)
    if (!row) throw new AppError('not_found', `story ${id} not found`)
    return this.standing(row)
  }

  /** The story playing a flow, if any, standing where it can. */
  rowOfFlow(flowId: string): StoryRow | null {
    const row = this.store.byFlow(flowId)
    return row ? this.standing(row) : null
  }

  /**
   * The flow changed (its announcement): if where play stood was deleted, the story moves to
   * the nearest surviving ancestor and says so; otherwise it remembers where that is now.
   */
  flowChanged(flowId: string): void {
    const row = this.store.byFlow(flowId)
    if (!row) return
    const now = this.standing(row)
    if (now.current_node_id !== row.current_node_id) this.emit(row.id)
    else if (now.current_node_id !== null) this.trail.walk(row.id, row.flow_id, now.current_node_id)
  }

  /**
   * A story always stands at a node of its flow, checked whenever it is read (one indexed
   * lookup), so a call that comes between a delete and the flow's announcement sees the
   * fallback too. Nowhere to stand (an empty flow: a half-made story, or every turn deleted)
   * plays the opening scene again.
   */
  private standing(row: StoryRow): StoryRow {
    const at = row.current_node_id
    if (at !== null && this.deps.graph.isMember(row.flow_id, at)) {
      this.trail.remember(row.id, row.flow_id, at)
      return row
    }
    const survivor = this.trail.survivor(row.id, row.flow_id)
    if (survivor === null) this.playOpening(row, this.files(row))
    else {
      this.store.setPosition(row.id, { current: survivor, redo: null }, isoNow())
      this.trail.remember(row.id, row.flow_id, survivor)
    }
    const moved = this.store.get(row.id)!
    // The mirror of the summary is a copy: a project folder gone meanwhile must not hide the move.
    guard(() => this.writeLatestSummary(moved), undefined)
    return moved
  }

  files(row: StoryRow): ScenarioFiles {
    return new ScenarioFiles(join(this.deps.paths.scenarios, row.name))
  }

  /** The path from the opening scene to a node, oldest first. */
  orderedPath(row: StoryRow, nodeId: string): string[] {
    const flow = this.deps.graph.getFlow(row.flow_id)
    return activePath(flow.connections, nodeId, (id) => this.deps.graph.getNode(id).timestamp)
  }

  /** The app wrote this content to a scenario file (a job's sheet): it is not an outside edit. */
  markWritten(storyId: string, path: string, content: string): void {
    this.knownHashes.set(this.fileKey(storyId, path), contentHash(content))
  }

  fileKey(storyId: string, path: string): string {
    return `${storyId}\0${path}`
  }

  language(): Language {
    return uiLanguage(this.deps.settings.get().language)
  }

  emit(storyId: string): Story {
    const story = this.toStory(this.row(storyId))
    this.deps.bus.emit('story_updated', { story })
    return story
  }

  private moveTo(row: StoryRow, nodeId: string, redo: string | null): void {
    this.store.setPosition(row.id, { current: nodeId, redo }, isoNow())
    this.trail.remember(row.id, row.flow_id, nodeId)
    this.writeLatestSummary({ ...row, current_node_id: nodeId })
  }

  /** `summaries/latest_summary.json` mirrors the summary that holds where play stands. */
  private writeLatestSummary(row: StoryRow): void {
    const summary = row.current_node_id ? this.summaryAt(row, row.current_node_id) : null
    const files = this.files(row)
    const next = latestSummaryJson({
      text: summary?.text ?? '',
      node_id: summary?.node_id ?? null,
      updated_at: summary?.created_at ?? null,
    })
    if (files.readOrNull('summaries/latest_summary.json') !== next) files.write('summaries/latest_summary.json', next)
  }

  private describeSave(row: StoryRow, save: Omit<StorySave, 'preview' | 'turn'>): StorySave {
    const node = this.deps.graph.findNode(save.node_id)
    const text = (node?.response || node?.prompt || '').replace(/\s+/g, ' ').trim()
    return {
      ...save,
      preview: text.length > 120 ? `${text.slice(0, 119)}…` : text,
      turn: Math.max(0, this.deps.graph.pathTo(row.flow_id, save.node_id).size - 1),
    }
  }

  private requireNode(row: StoryRow, nodeId: string): void {
    if (!this.deps.graph.isMember(row.flow_id, nodeId))
      throw new AppError('not_found', `node ${nodeId} is not part of story "${row.name}"`)
  }

  private copyPersona(fromId: string, toId: string): void {
    const from = this.deps.personas.find(fromId)
    if (!from) return
    this.deps.personas.update({
      id: toId,
      chat_model: from.chat_model,
      lightweight_model: from.lightweight_model,
      temperature: from.temperature,
      max_tokens: from.max_tokens,
    })
  }

  private toStory(row: StoryRow): Story {
    const files = this.files(row)
    // A folder moved or deleted outside the app must not hide the other stories: defaults, no sheets.
    const settings = guard(() => files.settings(), StorySettings.parse({}))
    const characters = guard(() => files.characters(), [])
    return {
      id: row.id,
      name: row.name,
      flow_id: row.flow_id,
      persona_id: row.persona_id,
      language: row.language,
      template: row.template,
      current_node_id: row.current_node_id,
      redo_node_id: row.redo_node_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
      settings,
      characters,
    }
  }
}

function guard<T>(read: () => T, fallback: T): T {
  try {
    return read()
  } catch {
    return fallback
  }
}

/** The opening scene as the story's first reply: the file without its top heading. */
function openingText(markdown: string): string {
  return markdown.replace(/^\s*#[^\n]*\n+/, '').trim()
}
