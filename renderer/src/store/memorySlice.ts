import i18next from 'i18next'
import type { StateCreator } from 'zustand'
import type { MemoryJob, MemoryUnit, MemoryUnitState } from '@shared/contract'
import type { Client } from '../bridge'
import type { App, AppStore } from './app'
import type { MemoryFilter, MemoryJobFilter, MemorySlice } from './memoryState'

/** Units per page in the memory inspector. */
export const MEMORY_PAGE = 20
/** memory_list_units answers at most this many rows per call. */
const LIST_MAX = 1000
const LIVE_STATES: MemoryUnitState[] = ['raw', 'validated', 'consolidated']

export const defaultMemoryFilter: MemoryFilter = {
  kind: null,
  state: 'active',
  entityId: null,
  from: null,
  to: null,
  query: '',
  offset: 0,
}

/** The newest jobs the jobs view lists (memory_list_jobs allows up to 500). */
export const MEMORY_JOB_LIMIT = 200

/** The persona the memory panel shows: the panel's choice, else the open conversation's. */
export function memoryPersona(s: App): string | null {
  return s.memoryPersonaId ?? s.flow?.persona_id ?? null
}

/** Newest first, as memory_list_units orders. */
function newerFirst(a: MemoryUnit, b: MemoryUnit): number {
  return (b.occurred_at ?? b.created_at) - (a.occurred_at ?? a.created_at) || b.id - a.id
}

export const memorySlice =
  (client: Client): StateCreator<App, [], [], MemorySlice> =>
  (set, get) => {
    async function listUnits(personaId: string, f: MemoryFilter) {
      const base = {
        persona_id: personaId,
        ...(f.kind ? { kind: f.kind } : {}),
        ...(f.entityId !== null ? { entity_id: f.entityId } : {}),
        ...(f.from !== null ? { from: f.from } : {}),
        ...(f.to !== null ? { to: f.to } : {}),
        ...(f.query.trim() ? { query: f.query.trim() } : {}),
      }
      if (f.state !== 'active') {
        return get().invoke('memory_list_units', {
          ...base,
          ...(f.state !== 'all' ? { state: f.state } : {}),
          limit: MEMORY_PAGE,
          offset: f.offset,
        })
      }
      // The contract filters one state at a time: merge the live states' first pages, in the
      // server's order, to page through everything but the archived exactly.
      const limit = Math.min(LIST_MAX, f.offset + MEMORY_PAGE)
      const parts = await Promise.all(
        LIVE_STATES.map((state) => get().invoke('memory_list_units', { ...base, state, limit, offset: 0 })),
      )
      if (parts.some((p) => p === null)) return null
      const units = parts.flatMap((p) => p!.units).sort(newerFirst)
      return {
        units: units.slice(f.offset, f.offset + MEMORY_PAGE),
        total: parts.reduce((n, p) => n + p!.total, 0),
      }
    }

    /** Calls that only refresh what is shown stay quiet: a vanished unit just closes. */
    async function quietDetail(personaId: string, unitId: number) {
      const result = await client.invoke('memory_get_unit', { persona_id: personaId, unit_id: unitId })
      return result.ok ? result.value : null
    }

    async function quietReach(personaId: string, unitId: number) {
      const result = await client.invoke('memory_unit_reach', { persona_id: personaId, unit_id: unitId })
      return result.ok ? { unitId, reach: result.value } : null
    }

    /** Answers to older job list requests are dropped: only the newest request's list is shown. */
    let jobsRequest = 0

    async function listJobs(personaId: string, status: MemoryJob['status'] | undefined) {
      const out = await get().invoke('memory_list_jobs', {
        persona_id: personaId,
        ...(status ? { status } : {}),
        limit: MEMORY_JOB_LIMIT,
      })
      return out?.jobs ?? null
    }

    /** The jobs for a filter; with none chosen yet, the failed ones when there are any, else all. */
    async function jobsFor(
      personaId: string,
      filter: MemoryJobFilter | null,
    ): Promise<{ filter: MemoryJobFilter; jobs: MemoryJob[] } | null> {
      if (filter === null) {
        const failed = await listJobs(personaId, 'failed')
        if (failed === null) return null
        if (failed.length > 0) return { filter: 'failed', jobs: failed }
        filter = 'all'
      }
      const jobs = await listJobs(personaId, filter === 'all' ? undefined : filter)
      return jobs && { filter, jobs }
    }

    /** Runs a unit action, then refreshes the panel. */
    async function act<T>(run: (personaId: string) => Promise<T | null>): Promise<T | null> {
      const personaId = memoryPersona(get())
      if (!personaId) return null
      const out = await run(personaId)
      await get().refreshMemory()
      return out
    }

    return {
      memoryPersonaId: null,
      memoryView: 'units',
      memoryFilter: defaultMemoryFilter,
      memoryUnits: null,
      memoryStatus: null,
      memoryEntities: null,
      memoryDetail: null,
      memoryReach: null,
      memoryWhyNodeId: null,
      memoryPacks: null,
      memoryJobs: null,
      memoryJobFilter: null,

      setMemoryPersona(personaId) {
        // The subscription in wireMemoryEvents resets and reloads the panel for the new persona.
        set({ memoryPersonaId: personaId })
      },

      setMemoryView(view) {
        // Each visit to the jobs view starts on its default filter.
        if (view === 'jobs' && get().memoryView !== 'jobs') return void get().showMemoryJobs()
        set({ memoryView: view })
      },

      async setMemoryFilter(patch) {
        // Any change but paging starts again from the first page.
        const offset = patch.offset ?? 0
        set((s) => ({ memoryFilter: { ...s.memoryFilter, ...patch, offset }, memoryDetail: null }))
        await get().refreshMemory()
      },

      async refreshMemory() {
        const personaId = memoryPersona(get())
        if (!personaId) {
          set({
            memoryUnits: null,
            memoryStatus: null,
            memoryEntities: null,
            memoryDetail: null,
            memoryPacks: null,
            memoryJobs: null,
          })
          return
        }
        const { invoke, memoryFilter, memoryDetail, memoryWhyNodeId, memoryView } = get()
        const [status, units, entities, detail, packs, , reach] = await Promise.all([
          invoke('memory_status', { persona_id: personaId }),
          listUnits(personaId, memoryFilter),
          invoke('memory_list_entities', { persona_id: personaId }),
          memoryDetail ? quietDetail(personaId, memoryDetail.unit.id) : null,
          memoryWhyNodeId ? invoke('memory_packs_for_node', { persona_id: personaId, node_id: memoryWhyNodeId }) : null,
          memoryView === 'jobs' ? get().loadMemoryJobs() : null,
          memoryDetail ? quietReach(personaId, memoryDetail.unit.id) : null,
        ])
        const now = get()
        // Another persona or filter was chosen meanwhile: its own refresh is on the way.
        if (memoryPersona(now) !== personaId || now.memoryFilter !== memoryFilter) return
        set({
          memoryStatus: status,
          memoryUnits: units,
          memoryEntities: entities,
          // A unit opened meanwhile stays; the one shown is replaced by its fresh copy (null: gone).
          memoryDetail: now.memoryDetail !== memoryDetail ? now.memoryDetail : detail,
          memoryReach: now.memoryDetail !== memoryDetail ? now.memoryReach : reach,
          memoryPacks:
            packs && memoryWhyNodeId && now.memoryWhyNodeId === memoryWhyNodeId
              ? { nodeId: memoryWhyNodeId, packs }
              : now.memoryPacks,
        })
      },

      async openMemoryUnit(unitId) {
        const personaId = memoryPersona(get())
        if (unitId === null || !personaId) return set({ memoryDetail: null })
        const [detail, reach] = await Promise.all([
          get().invoke('memory_get_unit', { persona_id: personaId, unit_id: unitId }),
          quietReach(personaId, unitId),
        ])
        if (detail && memoryPersona(get()) === personaId)
          set({ memoryDetail: detail, memoryReach: reach, memoryView: 'units' })
      },

      showWhyRemembered(nodeId) {
        set({
          panel: 'memory',
          memoryView: 'why',
          memoryWhyNodeId: nodeId,
          memoryDetail: null,
          // The node belongs to the open conversation: show its persona's memory.
          memoryPersonaId: null,
        })
        // Loaded by the subscription in wireMemoryEvents when the node or persona changed.
      },

      async editMemoryUnit(unitId, payload, reason) {
        const detail = await act((persona_id) =>
          get().invoke('memory_edit_unit', {
            persona_id,
            unit_id: unitId,
            payload,
            ...(reason?.trim() ? { reason: reason.trim() } : {}),
          }),
        )
        if (detail && get().memoryDetail?.unit.id === unitId) set({ memoryDetail: detail })
        return detail !== null
      },

      async pinMemoryUnit(unitId, pin) {
        await act((persona_id) => get().invoke('memory_pin_unit', { persona_id, unit_id: unitId, pin }))
      },

      async archiveMemoryUnit(unitId, archived) {
        await act((persona_id) => get().invoke('memory_archive_unit', { persona_id, unit_id: unitId, archived }))
      },

      async setMemorySensitivity(unitId, sensitivity) {
        await act((persona_id) => get().invoke('memory_set_sensitivity', { persona_id, unit_id: unitId, sensitivity }))
      },

      async setMemoryGlobal(unitId, global) {
        await act((persona_id) => get().invoke('memory_set_global', { persona_id, unit_id: unitId, global }))
      },

      async deleteMemoryUnit(unitId) {
        if (get().memoryDetail?.unit.id === unitId) set({ memoryDetail: null })
        await act((persona_id) => get().invoke('memory_delete_unit', { persona_id, unit_id: unitId }))
      },

      async goToNode(nodeId, flowId) {
        const target = flowId ?? get().flowId
        if (target && target !== get().flowId) await get().openFlow(target)
        if (get().nodes[nodeId] || get().members[nodeId]) get().focusNode(nodeId)
      },

      async showMemoryJobs(filter) {
        set({ memoryView: 'jobs', memoryJobFilter: filter ?? null })
        await get().loadMemoryJobs()
      },

      async showFailedMemoryJobs(personaId) {
        const s = get()
        set({
          panel: 'memory',
          // The open conversation's persona is followed rather than pinned.
          memoryPersonaId: s.flow?.persona_id === personaId ? null : personaId,
          memoryView: 'jobs',
          memoryDetail: null,
        })
        await get().loadMemoryJobs('failed')
      },

      async loadMemoryJobs(filter) {
        if (filter !== undefined) set({ memoryJobFilter: filter })
        const personaId = memoryPersona(get())
        if (!personaId) return
        const request = ++jobsRequest
        const found = await jobsFor(personaId, get().memoryJobFilter)
        if (!found || request !== jobsRequest || memoryPersona(get()) !== personaId) return
        set({ memoryJobs: found.jobs, memoryJobFilter: found.filter })
      },

      async retryMemoryJobs(ids) {
        const personaId = memoryPersona(get())
        if (!personaId) return
        const out = await get().invoke('memory_retry_jobs', { persona_id: personaId, ...(ids ? { job_ids: ids } : {}) })
        if (!out) return
        get().toast('info', i18next.t('memory.jobList.retried', { count: out.retried }))
        // After "Retry all failed" the failed list would be empty: show every job, to watch them run again.
        if (!ids && get().memoryJobFilter === 'failed') set({ memoryJobFilter: 'all' })
        await get().refreshMemory()
      },

      async setMemoryPaused(paused, options = {}) {
        const personaId = options.personaId ?? memoryPersona(get())
        if (!personaId) return
        const status = await get().invoke('memory_set_paused', {
          persona_id: personaId,
          paused,
          ...(options.retryFailed ? { retry_failed: true } : {}),
        })
        if (status && memoryPersona(get()) === personaId) set({ memoryStatus: status })
      },

      async setMemoryBudget(dailyTokens) {
        const personaId = memoryPersona(get())
        if (!personaId) return
        const status = await get().invoke('memory_set_budget', { persona_id: personaId, daily_tokens: dailyTokens })
        if (status && memoryPersona(get()) === personaId) set({ memoryStatus: status })
      },
    }
  }

/**
 * Keeps the open panel current: memory changes of the shown persona (episodes recorded,
 * jobs finished, edits elsewhere) refresh it, a few at a time; opening the panel, another
 * persona or another "why" node loads it; another conversation brings its own persona back.
 */
export function wireMemoryEvents(client: Client, store: AppStore): void {
  let timer: ReturnType<typeof setTimeout> | null = null
  const refreshSoon = () => {
    timer ??= setTimeout(() => {
      timer = null
      void store.getState().refreshMemory()
    }, 150)
  }
  client.on('memory_changed', ({ persona_id }) => {
    const s = store.getState()
    if (s.panel === 'memory' && memoryPersona(s) === persona_id) refreshSoon()
  })
  /**
   * A notice of what the persona did with what was said in chat (`said`), whose Undo does the
   * opposite and, once the host has done it, says that (`undone`).
   */
  const noticeWithUndo = (
    personaId: string,
    text: string,
    said: 'memory.told.kept' | 'memory.told.forgotten',
    undone: 'memory.told.kept' | 'memory.told.forgotten',
    undo: () => Promise<boolean>,
  ) => {
    const s = store.getState()
    const name = s.personas.find((p) => p.id === personaId)?.name ?? ''
    s.toast('info', i18next.t(said, { name, text }), {
      label: i18next.t('memory.told.undo'),
      run: () =>
        void undo().then((done) => {
          if (done) store.getState().toast('info', i18next.t(undone, { name, text }))
        }),
    })
  }
  // Asked in chat to forget what it was asked to remember, it says so, and Undo brings it back.
  client.on('memory_forgot', ({ persona_id, units }) => {
    const text = units.map((u) => u.text).join('”, “')
    noticeWithUndo(persona_id, text, 'memory.told.forgotten', 'memory.told.kept', async () => {
      const invoke = store.getState().invoke
      const back = await Promise.all(
        units.map((u) => invoke('memory_archive_unit', { persona_id, unit_id: u.unit_id, archived: false })),
      )
      return back.every(Boolean)
    })
  })
  // Asked in chat to remember something, the persona says so, and Undo forgets it again.
  client.on('memory_told', ({ persona_id, unit_id, text }) => {
    noticeWithUndo(persona_id, text, 'memory.told.kept', 'memory.told.forgotten', async () => {
      const out = await store.getState().invoke('memory_delete_unit', { persona_id, unit_id })
      return out?.deleted === true
    })
  })
  client.onState((connection) => {
    if (connection === 'connected' && store.getState().panel === 'memory') refreshSoon()
  })
  // A persona's embedding model changed (its search choice, the panel's offer): the status names
  // the model it is searched with now, before any unit changes.
  client.on('personas_changed', () => {
    if (store.getState().panel === 'memory') refreshSoon()
  })
  let shownPersona: string | null = null
  let shownKey: string | null = null
  store.subscribe((state, previous) => {
    // Another conversation brings its own persona back; the first one opened after a
    // (re)load does not, or a persona picked while it loads would be dropped.
    if (previous.flowId !== null && state.flowId !== previous.flowId && state.memoryPersonaId !== null) {
      store.setState({ memoryPersonaId: null }) // re-enters with the new persona
      return
    }
    const persona = memoryPersona(state)
    const key = state.panel === 'memory' ? `${persona}\n${state.memoryWhyNodeId}` : null
    if (key === shownKey) return
    shownKey = key
    if (key === null) return
    if (persona !== shownPersona) {
      shownPersona = persona
      store.setState({
        memoryFilter: defaultMemoryFilter,
        memoryDetail: null,
        memoryUnits: null,
        memoryEntities: null,
        memoryStatus: null,
        memoryPacks: null,
        memoryJobs: null,
        memoryJobFilter: null,
      })
    }
    void store.getState().refreshMemory()
  })
}
