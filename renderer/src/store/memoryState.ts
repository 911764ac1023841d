import type {
  MemoryJob,
  MemorySensitivity,
  MemoryUnit,
  MemoryUnitDetail,
  MemoryUnitKind,
  MemoryUnitState,
  Out,
} from '@shared/contract'

// What the memory slice holds and offers (its implementation: memorySlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** `active`: every state but archived — what the persona can still recall. */
export type MemoryStateFilter = MemoryUnitState | 'active' | 'all'

export interface MemoryFilter {
  kind: MemoryUnitKind | null
  state: MemoryStateFilter
  entityId: number | null
  /** UTC epoch seconds on `occurred_at`; `to` is exclusive. */
  from: number | null
  to: number | null
  query: string
  offset: number
}

export type MemoryView = 'units' | 'entities' | 'why' | 'jobs'

/** The jobs view's status filter; `all` asks for every status. */
export type MemoryJobFilter = MemoryJob['status'] | 'all'

export type MemoryEntities = Out<'memory_list_entities'>

/** The packs injected with one node's reply, newest first. */
export interface MemoryPacks {
  nodeId: string
  packs: Out<'memory_packs_for_node'>
}

/** The memory inspector: one persona's units, entities, the packs injected into replies, and its jobs. */
export interface MemorySlice {
  /** Chosen in the panel; null follows the open conversation's persona. */
  memoryPersonaId: string | null
  memoryView: MemoryView
  memoryFilter: MemoryFilter
  memoryUnits: { units: MemoryUnit[]; total: number } | null
  memoryStatus: Out<'memory_status'> | null
  memoryEntities: MemoryEntities | null
  /** The unit open in the panel, if any. */
  memoryDetail: MemoryUnitDetail | null
  /** Which conversations may remember the open unit (shown only while it is that unit's). */
  memoryReach: { unitId: number; reach: Out<'memory_unit_reach'> } | null
  /** The node whose injected MemoryPacks "Why remembered?" shows. */
  memoryWhyNodeId: string | null
  memoryPacks: MemoryPacks | null
  /** The background jobs of the persona's memory, newest first, as the filter asks. */
  memoryJobs: MemoryJob[] | null
  /** null until the jobs view decides: failed when any job failed, else all. */
  memoryJobFilter: MemoryJobFilter | null

  setMemoryPersona(personaId: string | null): void
  setMemoryView(view: MemoryView): void
  setMemoryFilter(patch: Partial<MemoryFilter>): Promise<void>
  /** Reloads everything the panel shows for the current persona. */
  refreshMemory(): Promise<void>
  openMemoryUnit(unitId: number | null): Promise<void>
  /** Opens the memory panel on the packs injected with a node's reply. */
  showWhyRemembered(nodeId: string): void
  editMemoryUnit(unitId: number, payload: Record<string, unknown>, reason?: string): Promise<boolean>
  pinMemoryUnit(unitId: number, pin: boolean): Promise<void>
  archiveMemoryUnit(unitId: number, archived: boolean): Promise<void>
  setMemorySensitivity(unitId: number, sensitivity: MemorySensitivity): Promise<void>
  setMemoryGlobal(unitId: number, global: boolean): Promise<void>
  deleteMemoryUnit(unitId: number): Promise<void>
  /** Opens the conversation a memory came from and centres its node. */
  goToNode(nodeId: string, flowId: string | null): Promise<void>
  /** Opens the jobs view on the given filter, or the default one (failed when any failed, else all). */
  showMemoryJobs(filter?: MemoryJobFilter): Promise<void>
  /** Opens the memory panel on a persona's failed jobs (from the status bar). */
  showFailedMemoryJobs(personaId: string): Promise<void>
  /** Loads the jobs list; a filter given becomes the current one. */
  loadMemoryJobs(filter?: MemoryJobFilter): Promise<void>
  /** Queues dead-lettered jobs again (every failed one when no ids are given). */
  retryMemoryJobs(ids?: number[]): Promise<void>
  /**
   * A persona's memory pause switch (the panel's persona when none is named). Resuming with
   * `retryFailed` is the status bar's "retry" after the circuit breaker paused memory.
   */
  setMemoryPaused(paused: boolean, options?: { personaId?: string; retryFailed?: boolean }): Promise<void>
  /** The daily token budget of the panel's persona's memory jobs; null: no limit. */
  setMemoryBudget(dailyTokens: number | null): Promise<void>
}
