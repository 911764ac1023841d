import { createContext, useContext } from 'react'
import { create, type StoreApi, type UseBoundStore } from 'zustand'
import type { Client } from '../bridge'
import { connectionSlice, type ConnectionSlice } from './connectionSlice'
import { jobsSlice, type JobsSlice } from './jobsSlice'
import { settingsSlice, type SettingsSlice } from './settingsSlice'

export type App = ConnectionSlice & SettingsSlice & JobsSlice
export type AppStore = UseBoundStore<StoreApi<App>>

/**
 * The renderer's state. Bridge calls live in the slices' actions; components select one
 * value at a time. Events from the main process are wired here once, not in components.
 */
export function createAppStore(client: Client): AppStore {
  const store = create<App>()((...a) => ({
    ...connectionSlice(client)(...a),
    ...settingsSlice(client)(...a),
    ...jobsSlice(...a),
  }))
  client.on('settings_updated', (settings) => store.setState({ settings, settingsError: null }))
  client.on('job_progress', (progress) => store.getState().applyJobProgress(progress))
  client.onState((connection) => {
    store.setState({ connection })
    // The host may have restarted while we were away: refresh what it owns.
    if (connection === 'connected') void Promise.all([store.getState().loadInfo(), store.getState().loadSettings()])
  })
  return store
}

export const StoreContext = createContext<AppStore | null>(null)

export function useApp<T>(selector: (state: App) => T): T {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useApp outside <StoreContext.Provider>')
  return store(selector)
}
