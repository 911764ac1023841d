import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import type { App, AppStore } from './app'
import type { WorkersSlice } from './workersState'
import { errorText } from './errorText'

export const workersSlice =
  (client: Client): StateCreator<App, [], [], WorkersSlice> =>
  (set, get) => ({
    workers: {},
    applyWorkerStatus(status) {
      set((state) => {
        const workers = { ...state.workers }
        if (status.state === 'ok') delete workers[status.worker]
        else workers[status.worker] = status
        return { workers }
      })
    },
    async loadWorkerStatus() {
      const result = await client.invoke('jobs_worker_status', {})
      if (result.ok) for (const status of result.value.workers) get().applyWorkerStatus(status)
    },
    async restartWorker(worker) {
      const result = await client.invoke('jobs_restart_worker', { worker })
      if (result.ok) get().applyWorkerStatus(result.value)
      else get().toast('error', errorText(result.error))
    },
  })

/** A worker's status arrives as it changes; one that changed while we were away is read on connecting. */
export function wireWorkerEvents(client: Client, store: AppStore): void {
  client.on('worker_status', (status) => store.getState().applyWorkerStatus(status))
  // Electron's bridge is connected from the start and never says so; the WebSocket says so each time.
  if (client.state() === 'connected') void store.getState().loadWorkerStatus()
  client.onState((connection) => {
    if (connection === 'connected') void store.getState().loadWorkerStatus()
  })
}
