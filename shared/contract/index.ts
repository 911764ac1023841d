import type { z } from 'zod'
import type { Result } from '../errors'
import { accessMethods } from './access'
import { appEvents, appMethods } from './app'
import { backupEvents, backupMethods } from './backup'
import { chatEvents, chatMethods } from './chat'
import { graphEvents, graphMethods } from './graph'
import { interopMethods } from './interop'
import { jobsEvents, jobsMethods } from './jobs'
import { mcpEvents, mcpMethods } from './mcp'
import { memoryEvents, memoryMethods } from './memory'
import { authorsNoteMethods, lorebookMethods } from './lorebook'
import { llmMethods, personaEvents, personaMethods } from './persona'
import { providerEvents, providerMethods } from './providers'
import { settingsEvents, settingsMethods } from './settings'
import { storyEvents, storyMethods } from './story'
import { worldEvents, worldMethods } from './world'

export * from './access'
export * from './app'
export * from './backup'
export * from './chat'
export * from './graph'
export * from './httpApi'
export * from './interop'
export * from './jobs'
export * from './mcp'
export * from './lorebook'
export * from './memory'
export { cleanName } from './names'
export * from './persona'
export * from './providers'
export * from './settings'
export * from './story'
export * from './world'
export type { MethodSpec, MethodSpecs, EventSpecs } from './spec'

/**
 * Every method the main process answers, by snake_case name, with zod schemas for its
 * input and output. The router validates against this; both transports and the
 * renderer's client are typed from it. Add a domain by spreading its methods here.
 */
export const contract = {
  ...appMethods,
  ...graphMethods,
  ...chatMethods,
  ...personaMethods,
  ...llmMethods,
  ...providerMethods,
  ...worldMethods,
  ...memoryMethods,
  ...settingsMethods,
  ...interopMethods,
  ...accessMethods,
  ...storyMethods,
  ...jobsMethods,
  ...backupMethods,
  ...mcpMethods,
  ...lorebookMethods,
  ...authorsNoteMethods,
} as const

/** Every event the main process pushes, with the schema of its data. */
export const events = {
  ...appEvents,
  ...graphEvents,
  ...chatEvents,
  ...personaEvents,
  ...providerEvents,
  ...worldEvents,
  ...memoryEvents,
  ...settingsEvents,
  ...storyEvents,
  ...jobsEvents,
  ...backupEvents,
  ...mcpEvents,
} as const

export type Contract = typeof contract
export type Method = keyof Contract
/** What a caller may send (defaults not yet applied). */
export type In<M extends Method> = z.input<Contract[M]['input']>
/** What a handler receives after validation. */
export type Parsed<M extends Method> = z.output<Contract[M]['input']>
export type Out<M extends Method> = z.output<Contract[M]['output']>

export type Events = typeof events
export type EventName = keyof Events
export type EventData<E extends EventName> = z.output<Events[E]>

export function isMethod(name: string): name is Method {
  return Object.hasOwn(contract, name)
}

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(events, name)
}

/**
 * The renderer's view of the main process. Electron's preload and the WebSocket client
 * both implement it, so components never know which transport they run on.
 */
export interface Bridge {
  invoke<M extends Method>(method: M, input: In<M>): Promise<Result<Out<M>>>
  /** Returns a function that removes the listener. */
  on<E extends EventName>(event: E, listener: (data: EventData<E>) => void): () => void
}
