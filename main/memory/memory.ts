import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { MemoryPack, MemoryStatus, MemoryUnitDetail, Parsed, Persona } from '@shared/contract'
import { AppError } from '@shared/errors'
import { uiLanguage } from '../kernel/language'
import { whenFree } from '../kernel/afterFirstText'
import type { GraphService, PathMembers } from '../graph/graphService'
import type { HomePaths } from '../kernel/home'
import type { EventBus } from '../kernel/events'
import type { QueueSettings } from '../kernel/jobs/protocol'
import { callerNamesAnyPath, type CallContext } from '../kernel/router'
import type { JobService } from '../kernel/jobs/jobService'
import type { WorkerEntry } from '../kernel/jobs/workerThread'
import { JobQueue } from '../kernel/jobs/jobQueue'
import type { RestartPolicy } from '../kernel/jobs/workerSupervisor'
import type { LlmRegistry } from '../llm/providers'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { openMemory } from './store/db'
import { setRequestNode, unplacedAnswers } from './requests/externalRequests'
import { askedToForget, askedToRemember } from './requests/rememberOrForget'
import { forgetTold, keepTold } from './requests/toldFacts'
import { LoopStatus, Sensitivity, UnitKind, UnitState, kindValue, sensitivityValue } from './store/enums'
import { chooseImportPath } from '../kernel/importFile'
import { inUserWords, refuseOtherKind } from '../kernel/importGuess'
import { readChatLog } from './import/chatLogFile'
import { importRowsInSteps } from './import/importer'
import { retryJobs } from './jobs/jobList'
import { MemoryJobPlanner } from './jobs/jobPlanner'
import { memoryControl, setDailyBudget, setPaused } from './store/memoryBreaker'
import { ENTITY_JOBS } from './jobs/memoryJobs'
import { MemoryProgress } from './store/memoryProgress'
import { modelIndexOf } from './retrieval/modelIndex'
import { vectorIndexOf } from './retrieval/vectorIndex'
import { wordIndexOf } from './retrieval/wordIndex'
import { IndexCatchUp } from './retrieval/indexCatchUp'
import { waitingFor } from './store/modelVectors'
import { PackAids } from './pack/packAids'
import { isSentenceModel } from './retrieval/sentenceModel'
import { isWordsModel, warmWordVectors } from './retrieval/wordVectors'
import { openWordNetSoon } from './retrieval/wordNet'
import { isBuiltInModel } from './retrieval/builtInModels'
import { ProgramRequests } from './requests/programRequests'
import { entityGraph, listUnits, memoryStatus, packsForNode, spendStatus, unitDetail } from './store/memoryQueries'
import { prunePacks } from './store/packHistory'
import { reachOf } from './pack/reach'
import { buildPack, choosePack, type PathMembership } from './pack/packBuilder'
import { nowSeconds, REPLY_BY, type MemoryStore, type Payload } from './store/store'
import { MemoryWorkerHost } from './jobs/workerHost'

// What chat's replies to other programs' requests read of them (chat/externalReplies.ts).
export type { KeptReply, ProgramRequests } from './requests/programRequests'
export { RequestStatus, type AnsweredRequest, type OpenRequest, type StoredRequest } from './requests/externalRequests'

export interface MemoryDeps {
  bus: EventBus
  paths: HomePaths
  jobs: JobService
  llm: LlmRegistry
  settings: SettingsService
  graph: GraphService
  personas: PersonaService
  env: NodeJS.ProcessEnv
  /** The memory worker's script; by default the built one (or the source under tsx). Null runs none. */
  memoryWorker?: WorkerEntry | null
  /** How long a pack waits for the lightweight model's intent and the query's embedding. */
  aidTimeoutMs?: { intent?: number; embed?: number }
  /** Retries, backoff and lease of memory jobs, in seconds; tests shorten them. */
  queue?: QueueSettings
  /** When a dead memory worker comes back; tests shorten the waits. */
  workerRestarts?: Partial<RestartPolicy>
  /** No other live process uses the home: jobs left running were a crashed process's, take them back now. */
  releaseLeases?: boolean
  log?: (message: string) => void
}

/** What the chat needs from memory on every exchange (seed 004's sync path). */
export interface ChatMemory {
  /** The MemoryPack text to inject before the user's message, or null when the persona has no memory yet. */
  packFor(input: {
    personaId: string
    /** The persona as the turn read it already (read again when absent). */
    persona?: Persona
    query: string
    flowId: string
    /** Whether the flow remembers only itself, as the turn read it (read again when absent). */
    flowPrivate?: boolean
    /** The node being answered (its pack is kept for "why remembered"); null for a preview below `parentIds`. */
    nodeId: string | null
    parentIds: readonly string[]
    budgetTokens: number
    /** The parents and every node above them (called only if a candidate came from a node). */
    pathAbove: () => PathMembers
  }): Promise<string | null>
  /**
   * Stores the finished exchange as an EPISODE (never blocking the reply) and queues its jobs;
   * answers the episode's unit id, or null when memory could not take it.
   */
  recordExchange(input: {
    personaId: string
    nodeId: string
    flowId: string
    prompt: string
    response: string
    /**
     * Who spoke the reply, when not this persona: a turn of a group scene it witnessed. Its
     * text then reads `<speaker>: <reply>`, never as its own words.
     */
    speaker?: string
  }): number | null
}

export interface Memory {
  chat: ChatMemory | null
  /** The service itself, for the CLI and tests. */
  service: MemoryService
  /** Notifications and meta requests from other programs, stored until chat has answered them. */
  requests: ProgramRequests
  dispose(): Promise<void>
}

/** The memory feature, started by the core with everything it may need. */
export function createMemory(deps: MemoryDeps): Memory {
  const service = new MemoryService(deps)
  const requests = new ProgramRequests({
    ...deps,
    store: (personaId) => service.store(personaId),
    openMemories: () => service.openMemories(),
    queueJobs: (personaId, unitId, embeddingOnly) => service.queueExternalJobs(personaId, unitId, embeddingOnly),
  })
  return {
    chat: service,
    service,
    requests,
    dispose: () => service.dispose(),
  }
}

/**
 * Each persona's memory: one database per persona under `memory/`, opened on first use.
 * Reads (the MemoryPack) run on the main thread — they are a few milliseconds of indexed
 * SQLite; LLM jobs and re-indexing run in the memory worker.
 */
export class MemoryService implements ChatMemory {
  private readonly stores = new Map<string, MemoryStore>()
  readonly worker: MemoryWorkerHost
  private readonly progress: MemoryProgress
  private readonly aids: PackAids
  private readonly planner: MemoryJobPlanner
  private readonly stopListening: () => void
  /** Open memories' kept indexes take in each write once the main thread is free. */
  private readonly catchUp = new IndexCatchUp()
  /** Whether the built-in sentence model was asked to load in the worker (once, see warmModels). */
  private sentenceModelAsked = false
  /** Whether WordNet was asked to open (once, see warmModels). */
  private wordNetAsked = false
  /** The personas warmModels last saw (null before its first look): a new one gets its memory made. */
  private personasSeen: Set<string> | null = null
  private disposed = false

  constructor(private readonly deps: MemoryDeps) {
    this.worker = new MemoryWorkerHost({
      entry: deps.memoryWorker ?? null,
      providers: () => deps.llm.configs(),
      busy: (dbPath) => this.busy(dbPath),
      init: { queue: deps.queue, pollMs: 2000 },
      queue: (dbPath) => {
        const store = [...this.stores.entries()].find(([id]) => this.dbPath(id) === dbPath)?.[1]
        return store ? new JobQueue(store.db, deps.queue) : null
      },
      bus: deps.bus,
      restarts: deps.workerRestarts,
      onFinished: (dbPath, m) => {
        const personaId = [...this.stores.entries()].find(([id]) => this.dbPath(id) === dbPath)?.[0]
        if (!personaId) return
        this.deps.bus.emit('memory_changed', { persona_id: personaId, unit_ids: [] })
        this.progress.finished(personaId, m)
        if (ENTITY_JOBS.includes(m.kind) && m.outcome === 'done') {
          const job = new JobQueue(this.store(personaId).db).get(m.job_id)
          const unitId = job && (JSON.parse(job.payload_json) as { unit_id?: number }).unit_id
          if (unitId) this.planner.queueEntitySummaries(personaId, this.store(personaId), unitId)
        }
        // Jobs write facts and summaries: the embedding model catches up with them.
        if (m.kind !== 'embed') this.planner.catchUpEmbeddings(personaId, this.store(personaId))
      },
      log: (m) => console.error(m),
    })
    this.aids = new PackAids({
      llm: deps.llm,
      env: deps.env,
      lightweightDefault: () => deps.settings.get().summary.model,
      timeoutMs: deps.aidTimeoutMs,
      sentences: (texts, timeoutMs) => this.worker.embedSentences(texts, timeoutMs),
      log: (m) => console.error(m),
    })
    this.planner = new MemoryJobPlanner({
      ...deps,
      embeddingModel: (persona) => this.aids.embeddingModel(persona),
      wake: (personaId) => this.worker.wake(this.dbPath(personaId)),
      pathTo: (flowId, nodeId) => this.pathTo(flowId, nodeId),
    })
    this.progress = new MemoryProgress({
      bus: deps.bus,
      db: (personaId) => this.store(personaId).db,
      personaName: (personaId) => deps.personas.find(personaId)?.name ?? personaId,
      language: () => deps.settings.get().language,
    })
    this.resumePending()
    this.warmModels()
    let language = uiLanguage(deps.settings.get().language)
    this.stopListening = deps.bus.listen((event, data) => {
      if (event === 'memory_changed') {
        const store = this.stores.get((data as { persona_id: string }).persona_id)
        if (store) this.catchUp.soon(store)
      }
      if (event === 'personas_changed') {
        this.resumeOnNewModel()
        this.warmModels()
        // A persona's new embedding model starts on its memory at once, not at the next message.
        for (const [personaId, store] of this.stores)
          if (deps.personas.find(personaId)) this.planner.catchUpEmbeddings(personaId, store)
      }
      if (event === 'settings_updated' && uiLanguage(deps.settings.get().language) !== language) {
        language = uiLanguage(deps.settings.get().language)
        this.progress.reword(this.stores.keys())
      }
    })
  }

  /**
   * Readies what a persona's embedding model needs before its first message, as soon as a
   * persona uses one (at start-up, or when one is made or changed):
   * - its memory's vectors load into the index in slices (see store());
   * - the built-in sentence model loads in the worker: cold, it took ~0.9 s to answer its first
   *   query (loading TensorFlow.js and the weights), and that reply waited for it; warm, a query
   *   takes ~15 ms;
   * - the built-in word model's file is read in the background (~0.2 s of the thread at once);
   * - WordNet, which every pack's search reads, opens in the background (~80 ms at once);
   * - a persona made while the app runs gets its memory database (made in its first reply before).
   */
  private warmModels(): void {
    // A one-shot command (no worker) has nothing to get ready for: it would only wait longer.
    if (!this.worker.available) return
    let sentences = false
    const personas = this.deps.personas.list()
    if (personas.length > 0 && !this.wordNetAsked) {
      this.wordNetAsked = true
      void openWordNetSoon()
    }
    const known = this.personasSeen
    this.personasSeen = new Set(personas.map((p) => p.id))
    for (const p of personas) {
      // A persona made since start has its memory made now, not in its first reply (~30–130 ms).
      if (known && !known.has(p.id) && !this.stores.has(p.id)) setImmediate(() => this.makeMemory(p.id))
      const model = this.aids.embeddingModel(p)
      if (!model) continue
      sentences ||= isSentenceModel(model)
      if (isWordsModel(model)) void warmWordVectors()
      // Opened now, so the memory's vectors load before the first message.
      if (existsSync(this.dbPath(p.id))) this.store(p.id)
    }
    if (this.sentenceModelAsked || !sentences) return
    this.sentenceModelAsked = true
    const started = performance.now()
    this.worker.warmSentences().then(
      () =>
        this.deps.log?.(
          `[memory] the built-in sentence model is loaded (${Math.round(performance.now() - started)} ms)`,
        ),
      (e: Error) => {
        this.sentenceModelAsked = false // asked again when a persona changes
        this.deps.log?.(`[memory] the built-in sentence model did not load: ${e.message}`)
      },
    )
  }

  /** A new persona's memory, made unless the persona is gone or the app stopping meanwhile. */
  private makeMemory(personaId: string): void {
    if (this.disposed || !this.deps.personas.find(personaId)) return
    try {
      this.store(personaId)
    } catch (e) {
      // Made at its first message otherwise, which says what is wrong where the user sees it.
      this.deps.log?.(`[memory] the memory of ${personaId} could not be made yet: ${(e as Error).message}`)
    }
  }

  dbPath(personaId: string): string {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(personaId))
      throw new AppError('bad_input', `"${personaId}" cannot name a memory database`)
    return join(this.deps.paths.memory, `memory_${personaId}.db`)
  }

  /** The persona's store; the persona must exist. */
  store(personaId: string): MemoryStore {
    const open = this.stores.get(personaId)
    if (open) return open
    this.deps.personas.get(personaId)
    mkdirSync(this.deps.paths.memory, { recursive: true })
    const store = openMemory(this.dbPath(personaId), { mainThread: { checkpointedElsewhere: this.worker.available } })
    this.stores.set(personaId, store)
    this.placeOldAnswers(store)
    if (this.worker.available) {
      // The worker opens what it is woken for, and checkpoints what it has open: this memory's
      // WAL too, even while no job of its is due (no model set up, memory paused).
      this.worker.wake(this.dbPath(personaId))
      // The indexes load in slices now, not all at once in the first pack (in the app; a one-shot
      // command without a worker would only wait for them).
      // Closed meanwhile (the persona deleted, the app quitting) is no failure worth a line.
      const stopped = (e: Error) =>
        store.db.open && this.deps.log?.(`[memory] loading the indexes of ${personaId} stopped: ${e.message}`)
      vectorIndexOf(store).loadInSlices().catch(stopped)
      wordIndexOf(store).loadInSlices().catch(stopped)
      if (this.aids.embeddingModel(this.deps.personas.get(personaId)))
        modelIndexOf(store.db).loadInSlices().catch(stopped)
    }
    return store
  }

  /**
   * Requests answered before their placeholder episode took the answering node as origin (an
   * older release) get it now: their own node's Regenerate no longer remembers them as something
   * said elsewhere, and "why remembered" links to where they were answered. A node since deleted
   * leaves its episode as it was. A node the user shared into other flows too is placed in one
   * of them (memory's reach reads the node's trees in every flow that holds it); asking `flowOf`
   * would refuse such a node, and the memory would not open.
   */
  private placeOldAnswers(store: MemoryStore): void {
    for (const { unit_id: unitId, node_id: nodeId } of unplacedAnswers(store)) {
      const [flowId] = this.deps.graph.flowsOfNode(nodeId)
      if (flowId) setRequestNode(store, unitId, { nodeId, flowId })
    }
  }

  /** The memories open now (at start-up: every persona's that exists on disk). */
  openMemories(): Array<[personaId: string, store: MemoryStore]> {
    return [...this.stores.entries()]
  }

  // ---- chat hooks

  async packFor(input: Parameters<ChatMemory['packFor']>[0]): Promise<string | null> {
    const store = this.store(input.personaId)
    const persona = input.persona?.id === input.personaId ? input.persona : this.deps.personas.get(input.personaId)
    // Queued once the reply's first text is out (whenFree): a job queued here is a write, and it
    // waited for the memory worker's write lock before the model's request could leave. This
    // pack searches the vectors there are either way.
    whenFree(() => {
      if (store.db.open) this.planner.catchUpEmbeddings(input.personaId, store)
    })
    // A reply (or its preview) does not wait on the model's intent: see PackAids.gather.
    const aids = await this.aids.gather(persona, store, input.query, { modelIntent: false })
    // The path is the parents' paths, which the node continues; the node itself is not on it: what
    // came from the turn being answered (a program's request, its placeholder episode) is its
    // question, not something it remembers. Walked only if a candidate came from a node: a long
    // flow's path costs milliseconds, and a memory of imported or global units never needs it.
    let walked: PathMembers | null = null
    const path = reachOf(this.deps.graph, {
      onPath: (id: string) => (walked ??= input.pathAbove()).has(id),
      nodeIds: input.nodeId ? [input.nodeId, ...input.parentIds] : input.parentIds,
      private: this.remembersOnlyItself(persona, input.flowId, input.flowPrivate),
    })
    const pack = choosePack(store, { query: input.query, budget: input.budgetTokens, path, ...aids })
    // Kept for "why remembered" once the reply's request has left and its first text come back
    // (whenFree): reading its sections and writing them before either held the reply back.
    const { nodeId } = input
    if (nodeId)
      whenFree(() => {
        if (store.db.open) this.savePack(store, nodeId, input.flowId, input.query, input.budgetTokens, pack.details())
      })
    return pack.text || null
  }

  recordExchange(input: Parameters<ChatMemory['recordExchange']>[0]): number | null {
    try {
      const store = this.store(input.personaId)
      const id = store.createUnit({
        kind: UnitKind.EPISODE,
        source: 'chat',
        state: UnitState.RAW,
        origin_node_id: input.nodeId,
        origin_flow_id: input.flowId,
        payload: {
          user_text: input.prompt,
          reply_text: input.response,
          ...(input.speaker ? { context_note: `${REPLY_BY}${input.speaker}` } : {}),
        },
      })
      this.planner.queueEpisodeJobs(input.personaId, store, [id], false)
      const at = store.requireUnit(id).occurred_at ?? nowSeconds()
      this.planner.queueBranchJobs(input.personaId, store, input.flowId, input.nodeId, at)
      // Asked in so many words, it is kept for good, or taken back (a witness of a group scene was not asked).
      const told = input.speaker ? null : askedToRemember(input.prompt)
      const fact = told === null ? null : keepTold(store, { ...input, episode: id, told })
      const untold = input.speaker || told !== null ? null : askedToForget(input.prompt)
      const forgotten = untold === null ? [] : forgetTold(store, untold)
      const changed = [id, ...(fact === null ? [] : [fact]), ...forgotten.map((f) => f.unit_id)]
      this.deps.bus.emit('memory_changed', { persona_id: input.personaId, unit_ids: changed })
      const said = { persona_id: input.personaId, node_id: input.nodeId }
      if (fact !== null) this.deps.bus.emit('memory_told', { ...said, unit_id: fact, text: told! })
      if (forgotten.length > 0) this.deps.bus.emit('memory_forgot', { ...said, units: forgotten })
      return id
    } catch (e) {
      // The reply is already saved in the graph; a memory failure must not touch it.
      console.error(`[memory] could not record the exchange: ${e instanceof Error ? e.message : String(e)}`)
      return null
    }
  }

  /** A conversation that remembers only itself: marked so, or its persona is. */
  private remembersOnlyItself(persona: Persona, flowId: string | null, flowPrivate?: boolean): boolean {
    return persona.memory_private || (flowId !== null && (flowPrivate ?? this.deps.graph.memoryPrivate(flowId)))
  }

  /** The active path's nodes (root → node) in the flow; the node's parents are already connected. */
  pathTo(flowId: string | undefined, nodeId: string): PathMembers {
    const graph = this.deps.graph
    // A node deleted since (an old episode's origin) has no path but itself.
    if (!graph.findNode(nodeId) || (flowId !== undefined && !graph.isMember(flowId, nodeId))) return new Set([nodeId])
    return graph.pathTo(graph.flowOf(nodeId, flowId), nodeId)
  }

  // ---- contract methods

  async pack(input: Parsed<'memory_pack'>): Promise<MemoryPack> {
    const store = this.store(input.persona_id)
    const persona = this.deps.personas.get(input.persona_id)
    this.planner.catchUpEmbeddings(input.persona_id, store)
    const aids = await this.aids.gather(persona, store, input.query)
    const { node_id: nodeId } = input
    let path: PathMembership | null = null
    if (nodeId) {
      const onPath = this.pathTo(input.flow_id, nodeId)
      // A node deleted since has no flow: it reaches its own memories alone.
      const flowId = this.deps.graph.findNode(nodeId) ? this.deps.graph.flowOf(nodeId, input.flow_id) : null
      path = reachOf(this.deps.graph, {
        onPath: (id) => onPath.has(id),
        nodeIds: [nodeId],
        private: flowId === null || this.remembersOnlyItself(persona, flowId),
      })
    }
    return buildPack(store, {
      ...aids,
      query: input.query,
      budget: input.budget_tokens,
      path,
      allowSecret: input.include_secret,
    })
  }

  /**
   * A chat log into the persona's memory. Only the process itself (the command line the user
   * typed) may name any file; windows and WebSocket scripts name one under imports/.
   */
  async importFile(
    input: Parsed<'memory_import'>,
    ctx: CallContext,
  ): Promise<{ imported: number; skipped: number; unreadable: number; errors: string[]; jobs: number }> {
    this.deps.personas.get(input.persona_id)
    const importsDir = callerNamesAnyPath(ctx) ? null : this.deps.paths.imports
    const chosen = await chooseImportPath(input.path, importsDir)
    // A character card or a ChatGPT export chosen as a chat log: say so, in the user's words.
    const language = uiLanguage(this.deps.settings.get().language)
    refuseOtherKind(chosen.path, chosen.name, 'chat_log', language)
    const log = await inUserWords('chat_log', language, () => readChatLog(chosen, nowSeconds()))
    // Opened only now: a refused file leaves the memory database as it was, or absent.
    const store = this.store(input.persona_id)
    let shown = 0
    const result = await importRowsInSteps(store, log.rows, {
      total: log.total,
      onProgress: (done, total) => {
        // A few updates a second are enough for the status bar.
        if (done < total && performance.now() - shown < 250) return
        shown = performance.now()
        this.progress.importing(input.persona_id, done, total)
      },
    })
    const jobs = input.no_llm ? 0 : this.planner.queueEpisodeJobs(input.persona_id, store, result.unitIds)
    // Without the LLM no provider is called; the built-in models are not one.
    if (input.no_llm && isBuiltInModel(this.aids.embeddingModel(this.deps.personas.get(input.persona_id))))
      this.planner.catchUpEmbeddings(input.persona_id, store)
    if (result.unitIds.length > 0)
      this.deps.bus.emit('memory_changed', { persona_id: input.persona_id, unit_ids: result.unitIds.slice(0, 1000) })
    const { imported, skipped, unreadable, errors } = result
    return { imported, skipped, unreadable, errors, jobs }
  }

  listUnits(input: Parsed<'memory_list_units'>) {
    return listUnits(this.store(input.persona_id), input)
  }

  detail(personaId: string, unitId: number): MemoryUnitDetail {
    return unitDetail(this.store(personaId), unitId)
  }

  addUnit(input: Parsed<'memory_add_unit'>): MemoryUnitDetail {
    const store = this.store(input.persona_id)
    const kind = kindValue(input.kind)
    const text = input.text
    const payloads: Record<UnitKind, Payload> = {
      [UnitKind.EPISODE]: { user_text: text },
      [UnitKind.FACT]: { predicate: 'is', object_text: text, evidence_unit_ids_json: '[]' },
      [UnitKind.SUMMARY]: { scope_type: 4, scope_key: 'topic:manual', summary_text: text },
      [UnitKind.PERSONA]: { persona_text: text, is_active: 1 },
      [UnitKind.CONTRACT]: { contract_text: text, is_active: 1 },
      [UnitKind.CAPSULE]: { capsule_json: JSON.stringify({ text }) },
      [UnitKind.LOOP]: { status: LoopStatus.OPEN, loop_text: text },
    }
    const id = store.createUnit({
      kind,
      source: 'user',
      state: UnitState.VALIDATED,
      occurred_at: input.occurred_at,
      sensitivity: input.sensitivity ? sensitivityValue(input.sensitivity) : Sensitivity.NORMAL,
      pin: input.pin,
      confidence: 1,
      payload: payloads[kind],
    })
    this.changed(input.persona_id, [id])
    return unitDetail(store, id)
  }

  editUnit(input: Parsed<'memory_edit_unit'>): MemoryUnitDetail {
    const store = this.store(input.persona_id)
    store.editPayload(input.unit_id, input.payload, input.reason ?? 'edited by the user')
    this.changed(input.persona_id, [input.unit_id])
    return unitDetail(store, input.unit_id)
  }

  setMeta(personaId: string, unitId: number, meta: Parameters<MemoryStore['editMeta']>[1], reason: string) {
    const store = this.store(personaId)
    store.editMeta(unitId, meta, reason)
    this.changed(personaId, [unitId])
    return store.toContract(store.requireUnit(unitId))
  }

  deleteUnit(personaId: string, unitId: number): { deleted: boolean } {
    const deleted = this.store(personaId).deleteUnit(unitId)
    if (deleted) this.changed(personaId, [unitId])
    return { deleted }
  }

  entities(personaId: string, query?: string) {
    return entityGraph(this.store(personaId), query)
  }

  packsForNode(personaId: string, nodeId: string) {
    return packsForNode(this.store(personaId), nodeId)
  }

  status(personaId: string): MemoryStatus {
    const store = this.store(personaId)
    const model = this.aids.embeddingModel(this.deps.personas.get(personaId))
    return {
      ...memoryStatus(store),
      vectors: { model, waiting: model ? waitingFor(store.db, model) : 0 },
      ...spendStatus(store.db, nowSeconds()),
    }
  }

  /**
   * The user's pause switch, and the breaker's "retry": resuming brings the waiting jobs back
   * (and, with `retryFailed`, the failed ones); either way the breaker's message has been acted on.
   */
  setPaused(personaId: string, paused: boolean, retryFailed: boolean): MemoryStatus {
    const store = this.store(personaId)
    setPaused(store.db, paused, nowSeconds())
    if (!paused && retryFailed) retryJobs(store.db, undefined)
    this.afterControlChange(personaId)
    return this.status(personaId)
  }

  setBudget(personaId: string, dailyTokens: number | null): MemoryStatus {
    const store = this.store(personaId)
    setDailyBudget(store.db, dailyTokens, nowSeconds())
    this.afterControlChange(personaId)
    return this.status(personaId)
  }

  private afterControlChange(personaId: string): void {
    this.worker.wake(this.dbPath(personaId))
    this.progress.report(personaId)
    this.changed(personaId, [])
  }

  /**
   * The breaker's "change model": once the persona's lightweight model is another than the one
   * that kept failing, its waiting and failed jobs move to the new model and run again.
   */
  private resumeOnNewModel(): void {
    for (const [personaId, store] of this.stores) {
      const control = memoryControl(store.db)
      if (control.paused_by !== 'breaker' || !this.deps.personas.find(personaId)) continue
      const model = this.planner.jobModel(personaId)
      if (!model || model === control.paused_model) continue
      store.db
        .transaction(() => {
          store
            .prepare(
              `UPDATE jobs SET payload_json = json_set(payload_json, '$.model', ?)
               WHERE status IN (0, 3) AND json_extract(payload_json, '$.model') = ?`,
            )
            .run(model, control.paused_model)
          setPaused(store.db, false, nowSeconds())
          retryJobs(store.db, undefined)
        })
        .immediate()
      this.afterControlChange(personaId)
    }
  }

  reindex(personaId: string): { job_id: number } {
    const store = this.store(personaId)
    const id = new JobQueue(store.db).enqueue('reindex', {}, { dedupeKey: 'reindex' })
    this.worker.wake(this.dbPath(personaId))
    return { job_id: id }
  }

  /** Failed jobs back in the queue (by hand, from the inspector), and the worker woken for them. */
  retryJobs(personaId: string, ids: number[] | undefined): { retried: number } {
    const store = this.store(personaId)
    const retried = retryJobs(store.db, ids)
    if (retried > 0) {
      this.worker.wake(this.dbPath(personaId))
      this.progress.report(personaId)
      this.changed(personaId, [])
    }
    return { retried }
  }

  /** Waits until the persona's due jobs are done (the import command, tests). */
  async whenIdle(personaId: string): Promise<void> {
    this.store(personaId)
    await this.worker.whenIdle(this.dbPath(personaId))
  }

  /** Queues an external message's jobs: all of an episode's, or (a meta request) only its embedding. */
  queueExternalJobs(personaId: string, unitId: number, embeddingOnly: boolean): void {
    const store = this.store(personaId)
    if (embeddingOnly) {
      this.planner.catchUpEmbeddings(personaId, store)
      this.worker.wake(this.dbPath(personaId))
    } else this.planner.queueEpisodeJobs(personaId, store, [unitId], false)
    this.deps.bus.emit('memory_changed', { persona_id: personaId, unit_ids: [unitId] })
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.stopListening()
    await this.worker.stop()
    for (const s of this.stores.values()) s.db.close()
    this.stores.clear()
  }

  // ---- internals

  private savePack(
    store: MemoryStore,
    nodeId: string,
    flowId: string,
    query: string,
    budget: number,
    pack: MemoryPack,
  ) {
    store
      .prepare(
        `INSERT INTO memory_packs (node_id, flow_id, query, budget_tokens, tokens, pack_json, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(nodeId, flowId, query, budget, pack.tokens, JSON.stringify(pack), nowSeconds())
    prunePacks(store, nodeId)
  }

  private busy(dbPath: string): boolean {
    const store = [...this.stores.entries()].find(([id]) => this.dbPath(id) === dbPath)?.[1]
    if (!store) return false
    return (
      (store.db
        .prepare(
          'SELECT EXISTS (SELECT 1 FROM jobs WHERE status = 1) OR EXISTS (SELECT 1 FROM jobs WHERE status = 0 AND run_after <= ?)',
        )
        .pluck()
        .get(nowSeconds()) as number) > 0
    )
  }

  /** Jobs left queued by the last run (a crash, a quit mid-import): wake the worker for them. */
  private resumePending(): void {
    let files: string[]
    try {
      files = readdirSync(this.deps.paths.memory)
    } catch {
      return
    }
    for (const f of files) {
      const m = /^memory_([A-Za-z0-9_-]+)\.db$/.exec(f)
      if (!m || !this.deps.personas.find(m[1])) continue
      const store = this.store(m[1]!)
      if (this.deps.releaseLeases) new JobQueue(store.db).releaseRunning()
      const pending = store.db.prepare('SELECT count(*) FROM jobs WHERE status IN (0, 1)').pluck().get() as number
      if (pending > 0) this.worker.wake(this.dbPath(m[1]!))
    }
  }

  private changed(personaId: string, ids: number[]): void {
    this.deps.bus.emit('memory_changed', { persona_id: personaId, unit_ids: ids })
  }
}
