import type { ChatService } from '../chat/chatService'
import type { Db } from '../db/open'
import type { GraphService } from '../graph/graphService'
import type { HomePaths } from '../kernel/home'
import type { EventBus } from '../kernel/events'
import type { JobService } from '../kernel/jobs/jobService'
import type { LlmRegistry } from '../llm/providers'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'

// What the world is built from (the composition root wires it): its own module, so the
// world's service, tools and playbooks name it without importing the world they make up.

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
