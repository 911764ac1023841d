import type { AppInfo } from '@shared/contract'
import { AppError } from '@shared/errors'
import { appSchema } from './appSchema'
import { openDatabase, type Db } from './db/open'
import { WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE } from './db/walCheckpoints'
import { GraphService } from './graph/graphService'
import { graphHandlers } from './graph/graphHandlers'
import { ChatService, type ChatOptions } from './chat/chatService'
import { ExternalReplies } from './chat/externalReplies'
import { TokenCalibration } from './llm/tokenCalibration'
import { EventBus } from './kernel/events'
import { MemoryKeyStore, type KeyStore } from './llm/keys/keyStore'
import { ProviderService } from './llm/providerService'
import { LlmRegistry } from './llm/providers'
import { PersonaService } from './persona/personaService'
import { createMemory, type MemoryDeps } from './memory/memory'
import { memoryHandlers } from './memory/memoryHandlers'
import { createWorld } from './world/world'
import { worldHandlers } from './world/worldHandlers'
import { interopHandlers } from './interop/interopHandlers'
import { createStory } from './story/story'
import { chatHandlers } from './chat/chatHandlers'
import { llmHandlers } from './llm/llmHandlers'
import { personaHandlers } from './persona/personaHandlers'
import { settingsHandlers } from './settings/settingsHandlers'
import { JobService } from './kernel/jobs/jobService'
import type { WorkerEntry } from './kernel/jobs/workerThread'
import { workerHandlers } from './kernel/jobs/workerHandlers'
import type { RestartPolicy } from './kernel/jobs/workerSupervisor'
import type { QueueSettings } from './kernel/jobs/protocol'
import { accessHandlers } from './access/accessHandlers'
import { ApiTokens } from './access/apiTokens'
import { combineHandlers, createRouter, type Router } from './kernel/router'
import { ensureHome, type HomePaths } from './kernel/home'
import { uiLanguage } from './kernel/language'
import { registerInstance } from './recovery/instances'
import { recoverAtStartup, type RecoveryReport } from './recovery/startupRecovery'
import { SettingsService } from './settings/settingsService'
import { appInfo } from './system/appInfoService'
import { BackupService } from './backup/backupService'
import { backupHandlers } from './backup/backupHandlers'
import { createMcp, type McpDeps } from './mcp/mcp'
import type { SecretFile } from './kernel/secretFile'
import type { CommandConfirmer } from './mcp/mcpCommands'
import { lorebookHandlers } from './lorebook/lorebookHandlers'
import { LorebookService } from './lorebook/lorebookService'
import { version as appVersion } from '../package.json'

export interface CoreOptions {
  home: string
  /** Where LLM keys, base URLs and default models come from (browser mode); process.env by default. */
  env?: NodeJS.ProcessEnv
  /** Where keys typed into the settings go: sealed by the OS keychain in the desktop app, memory otherwise. */
  keyStore?: KeyStore
  /** Chat streaming knobs; tests shorten the retry waits. */
  chat?: Omit<ChatOptions, 'env'>
  /** Retries, backoff and lease of background jobs, in seconds; tests shorten them. */
  jobQueue?: QueueSettings
  /** The job worker's script; null runs no worker (jobs stay queued, e.g. for one-shot CLI commands). */
  jobWorker?: WorkerEntry | null
  /** The memory worker's script; without one, memory jobs wait in each persona's queue. */
  memoryWorker?: WorkerEntry | null
  /** When a dead job or memory worker comes back (back-off, deaths before a pause); tests shorten it. */
  workerRestarts?: Partial<RestartPolicy>
  /** Memory knobs; tests shorten the waits for the models' help with a pack. */
  memory?: Pick<MemoryDeps, 'aidTimeoutMs' | 'queue'>
  mode: AppInfo['mode']
  checkOutput?: boolean
  log?: (message: string) => void
  /** Ready in the background what the first reply would wait for (the app and `serve`). */
  warmUp?: boolean
  /** Run the backup schedule's timer (the app and `serve`; one-shot CLI commands do not). */
  backupSchedule?: boolean
  /** Browser mode's host: a new access token for windows (Settings, `loomverse token --new`). */
  browserToken?: { rotate(): { url: string } }
  /** MCP waits (server start, one call, back-off); tests shorten them. */
  mcpTimeouts?: McpDeps['timeouts']
  /**
   * Where the values of MCP servers' env and headers are kept: sealed by the OS keychain in the
   * desktop app; by default (browser mode) a plain owner-only file beside mcp.json (McpDeps).
   */
  mcpSecretFile?: SecretFile
  /** Who confirms a new or changed MCP stdio command before it runs: a native dialog in the desktop app. */
  mcpCommands?: CommandConfirmer
  /** Tests damage a backup's copy before it is verified. */
  backupBeforeVerify?: (building: string) => void | Promise<void>
}

/**
 * The main process minus its transports: the database, the services, the event bus and
 * the router. Electron's shell and `loomverse serve` both start one and put a transport
 * in front. Services start in dependency order and are disposed in reverse.
 */
export interface Core {
  paths: HomePaths
  db: Db
  bus: EventBus
  graph: GraphService
  jobs: JobService
  /** Tokens of programs using the HTTP API, checked by the host before any handler runs. */
  apiTokens: ApiTokens
  backup: BackupService
  router: Router
  /** What start-up put right after an unclean stop; null when another live process shares the home. */
  recovered: RecoveryReport | null
  /** Stops the job worker, then closes the database. */
  dispose(): Promise<void>
}

export function startCore(options: CoreOptions): Core {
  const paths = ensureHome(options.home)
  const { db } = openDatabase(paths.db, {
    domains: appSchema,
    label: 'loomverse.db',
    // The job worker checkpoints it (walCheckpoints.ts): a node's write never waits for one.
    walBound: options.jobWorker ? WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE : undefined,
    shortBusyWaits: true,
  })
  const log = options.log ?? ((m: string) => console.error(m))
  const instance = registerInstance(paths.run)
  const bus = new EventBus()
  const graph = new GraphService(db, bus)
  // Before anything is served or the job worker claims: a crash's leftovers, if we are alone.
  const recovered = instance.alone ? recoverAtStartup(db, graph, paths, log) : null
  const settings = new SettingsService(db, bus)
  const jobs = new JobService({
    db,
    dbPath: paths.db,
    bus,
    // The worker reads provider settings from its environment: give it the same one.
    worker: options.jobWorker
      ? { ...options.jobWorker, env: { ...(options.jobWorker.env ?? process.env), ...options.env } }
      : null,
    log,
    init: options.jobQueue ? { queue: options.jobQueue } : undefined,
    restarts: options.workerRestarts,
    // A job changed rows through its own connection: tell open windows what is new.
    onNodesChanged: (ids) => {
      for (const id of ids) {
        const node = graph.findNode(id)
        if (node) bus.emit('node_updated', { node })
      }
    },
  })
  const env = options.env ?? process.env
  const llm = new LlmRegistry(new Map())
  const providers = new ProviderService(db, bus, options.keyStore ?? new MemoryKeyStore(), env, [
    llm,
    { replace: (configs) => jobs.setConfig([...configs.values()]) },
  ])
  providers.publish()
  jobs.start()
  const personas = new PersonaService(db, bus)
  personas.onDeleting((id) => graph.unbindPersona(id))
  let storyExists: (id: string) => boolean = () => false
  const lorebooks = new LorebookService({
    db,
    targetExists: (kind, id) => {
      if (kind === 'persona') return personas.list().some((p) => p.id === id)
      if (kind === 'flow') return graph.listFlows().some((f) => f.id === id)
      return storyExists(id)
    },
  })
  // What every domain above the graph may be handed.
  const shared = { bus, paths, jobs, llm, settings, graph, personas, env }
  const memory = createMemory({
    ...shared,
    memoryWorker: options.memoryWorker,
    workerRestarts: options.workerRestarts,
    releaseLeases: instance.alone,
    log,
    ...options.memory,
  })
  const chat = new ChatService(graph, settings, llm, bus, {
    ...options.chat,
    env,
    personas,
    memory: memory.chat,
    calibration: new TokenCalibration(db),
    lore: lorebooks,
  })
  graph.readsLiveTextFrom((nodeId) => chat.sentSoFar(nodeId))
  if (options.warmUp) {
    chat.warmUp()
    setImmediate(() => void llm.warmUp())
  }
  // Other programs' notifications and meta requests: memory stores them, chat answers them.
  const replies = new ExternalReplies({
    ...shared,
    chat,
    requests: memory.requests,
    retry: options.memory?.queue,
    log,
  })
  memory.requests.onStored((personaId, unitId) => replies.answerSoon(personaId, unitId))
  chat.useAnsweredRequests(replies)
  // Like memory jobs' leases: only a process alone on the home may take over what a dead one left.
  if (instance.alone) replies.resume()

  const worldDeps = {
    ...shared,
    db,
    chat,
    log,
    // A playbook's memorize step becomes an episode in the persona's memory.
    memorize: async ({ persona_id, text }: { persona_id: string | null; text: string }) => {
      if (persona_id) memory.service.addUnit({ persona_id, kind: 'episode', text })
    },
  }
  const world = createWorld(worldDeps)
  const story = createStory({ db, bus, paths, graph, personas, settings, jobs, chat, log, recover: recovered !== null })
  storyExists = (id) => {
    try {
      story.service.get(id)
      return true
    } catch {
      return false
    }
  }

  const mcp = createMcp({
    db,
    bus,
    home: paths.home,
    chat,
    graph,
    recover: recovered !== null,
    timeouts: options.mcpTimeouts,
    secretFile: options.mcpSecretFile,
    commands: options.mcpCommands,
    env: options.env,
  })
  const apiTokens = new ApiTokens(db)
  const backup = new BackupService({ db, paths, bus, appVersion, log, beforeVerify: options.backupBeforeVerify })
  if (options.backupSchedule) backup.startSchedule()
  const handlers = combineHandlers({
    app: {
      app_info: () => appInfo({ db, dbPath: paths.db, home: paths.home, mode: options.mode }),
      browser_new_token: () => {
        if (!options.browserToken) throw new AppError('unavailable', 'only browser mode has an access token to renew')
        return options.browserToken.rotate()
      },
    },
    settings: settingsHandlers(settings),
    graph: graphHandlers(graph, settings, jobs, personas),
    chat: chatHandlers(chat, graph),
    persona: personaHandlers(personas),
    llm: llmHandlers(llm, providers, settings),
    world: worldHandlers(world.service, worldDeps),
    memory: memoryHandlers(memory, shared),
    interop: interopHandlers({
      graph,
      bus,
      db,
      paths,
      personas,
      lorebooks,
      exportTarget: (id) => story.exportTarget(id),
      language: () => uiLanguage(settings.get().language),
      userName: () => settings.get().user.name,
    }),
    story: story.handlers,
    access: accessHandlers(apiTokens),
    jobs: workerHandlers({ jobs, memory: memory.service.worker }),
    backup: backupHandlers(backup),
    mcp: mcp.handlers,
    lorebook: lorebookHandlers(lorebooks, (flowId) => graph.personaOf(flowId)),
  })
  const router = createRouter(handlers, {
    checkOutput: options.checkOutput ?? (process.env.NODE_ENV === 'test' || process.env.LOOMVERSE_CHECK_OUTPUT === '1'),
    onError: (method, e) =>
      log(`[router] ${method} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  })

  return {
    paths,
    db,
    bus,
    graph,
    jobs,
    apiTokens,
    backup,
    router,
    recovered,
    async dispose() {
      // First: a running backup reads through the database this closes.
      await backup.dispose()
      story.dispose()
      await world.dispose()
      await mcp.dispose()
      await replies.dispose()
      await memory.dispose()
      await chat.stopAll()
      await jobs.stop()
      apiTokens.flush()
      db.close()
      instance.release()
    },
  }
}
