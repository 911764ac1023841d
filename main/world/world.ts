import type { ChatService } from '../chat/chatService'
import type { Db } from '../db/open'
import type { GraphService } from '../graph/graphService'
import type { HomePaths } from '../kernel/home'
import type { EventBus } from '../kernel/events'
import type { JobService } from '../kernel/jobs/jobService'
import type { LlmRegistry } from '../llm/providers'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { ensureDemoWorld } from './demoWorld'
import { routePlaybook } from './playbooks/metaRouter'
import { runWorldPlaybook } from './playbooks/worldPlaybooks'
import { worldToolProvider } from './worldToolRunner'
import { SUMMARY_BATCH, WorldService } from './worldService'

/** Where a playbook's `memorize` node sends its episode: the persona's memory, as the core wires it. */
export type MemorySink = (episode: { persona_id: string | null; playbook: string; text: string }) => Promise<void>

export interface WorldDeps {
  db: Db
  bus: EventBus
  paths: HomePaths
  jobs: JobService
  llm: LlmRegistry
  settings: SettingsService
  graph: GraphService
  personas: PersonaService
  chat: ChatService
  env: NodeJS.ProcessEnv
  memorize: MemorySink
  /** Where the world reports what it passed over (an unreadable trash record); stderr by default. */
  log?: (message: string) => void
}

export interface World {
  service: WorldService
  dispose(): Promise<void>
}

/** The world feature: buildings, whereabouts, items. Started by the core with everything it may need. */
export function createWorld(deps: WorldDeps): World {
  const world = new WorldService(deps)
  ensureDemoWorld(world)
  const unregisterTools = deps.chat.registerTools({
    ...worldToolProvider(world, deps.personas, deps.env, deps.bus),
    // The seed's meta router in the chat: view / edit / create words run their playbook.
    async playbook(text, ctx) {
      const playbook = routePlaybook(text, { seedKeywordsOnly: true })
      if (!playbook) return null
      const run = await runWorldPlaybook(world, deps, deps.memorize, {
        text,
        playbook,
        persona_id: ctx.personaId ?? undefined,
      })
      return run.output || null
    },
  })
  // Summaries finish in the worker; its batch reports are the cue to show the new text.
  const stopListening = deps.bus.listen((event, data) => {
    if (event !== 'job_progress') return
    const progress = data as { job_id: string; state: string }
    if (progress.job_id.startsWith(SUMMARY_BATCH) && (progress.state === 'done' || progress.state === 'failed'))
      world.summaryFinished(progress.job_id, progress.state === 'failed')
  })
  // A persona that comes or goes changes who is in which building.
  const stopPersonas = deps.bus.listen((event) => {
    if (event === 'personas_changed') deps.bus.emit('world_changed', { world: world.world() })
  })

  return {
    service: world,
    dispose: async () => {
      unregisterTools()
      stopListening()
      stopPersonas()
    },
  }
}
