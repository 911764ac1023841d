import type { worldMethods } from '@shared/contract'
import type { ChatService } from '../chat/chatService'
import type { Db } from '../db/open'
import type { GraphService } from '../graph/graphService'
import type { HomePaths } from '../home'
import type { EventBus } from '../host/events'
import type { Handlers } from '../host/router'
import type { JobService } from '../jobs/jobService'
import type { LlmRegistry } from '../llm/providers'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'

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
}

export interface World {
  handlers: Pick<Handlers, keyof typeof worldMethods>
  dispose(): Promise<void>
}

/** The world feature: buildings, whereabouts, items. Started by the core with everything it may need. */
export function createWorld(_deps: WorldDeps): World {
  return { handlers: {}, dispose: async () => {} }
}
