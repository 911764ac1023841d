import type { memoryMethods } from '@shared/contract'
import type { GraphService } from '../graph/graphService'
import type { HomePaths } from '../home'
import type { EventBus } from '../host/events'
import type { Handlers } from '../host/router'
import type { JobService } from '../jobs/jobService'
import type { LlmRegistry } from '../llm/providers'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'

export interface MemoryDeps {
  bus: EventBus
  paths: HomePaths
  jobs: JobService
  llm: LlmRegistry
  settings: SettingsService
  graph: GraphService
  personas: PersonaService
  env: NodeJS.ProcessEnv
}

/** What the chat needs from memory on every exchange (seed 004's sync path). */
export interface ChatMemory {
  /** The MemoryPack text to inject before the user's message, or null when the persona has no memory yet. */
  packFor(input: {
    personaId: string
    query: string
    nodeId: string
    flowId: string
    budgetTokens: number
  }): string | null
  /** Stores the finished exchange as an EPISODE (never blocking the reply) and queues its jobs. */
  recordExchange(input: { personaId: string; nodeId: string; flowId: string; prompt: string; response: string }): void
}

export interface Memory {
  handlers: Pick<Handlers, keyof typeof memoryMethods>
  chat: ChatMemory | null
  dispose(): Promise<void>
}

/** The memory feature, started by the core with everything it may need. */
export function createMemory(_deps: MemoryDeps): Memory {
  return { handlers: {}, chat: null, dispose: async () => {} }
}
