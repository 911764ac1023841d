import { createContext, useContext } from 'react'
import { create } from 'zustand'
import type { Client } from '../bridge'
import { chatSlice } from './chatSlice'
import { composerSlice } from './composerSlice'
import { connectionSlice } from './connectionSlice'
import { graphSlice } from './graphSlice'
import { invokeSlice } from './invokeSlice'
import { jobsSlice } from './jobsSlice'
import { mcpSlice, wireMcpEvents } from './mcpSlice'
import { memorySlice, wireMemoryEvents } from './memorySlice'
import { modalSlice } from './modalSlice'
import { panelSlice } from './panelSlice'
import { personaSlice } from './personaSlice'
import { settingsSlice } from './settingsSlice'
import { storySlice, wireStoryEvents } from './storySlice'
import { toastSlice, wireExternalReplies } from './toastSlice'
import { transcriptSlice, wireTranscript } from './transcriptSlice'
import { trashSlice, wireTrashEvents } from './trashSlice'
import { wireWorldEvents, worldSlice } from './worldSlice'
import { wireBackupNotice } from './backupNotice'
import { wireWorkerEvents, workersSlice } from './workersSlice'

import type { App, AppStore } from './app'

export type { App, AppStore }

/**
 * The renderer's state. Bridge calls live in the slices' actions; components select one
 * value at a time. Events from the main process are wired here once, not in components.
 */
export function createAppStore(client: Client): AppStore {
  const store = create<App>()((...a) => ({
    ...invokeSlice(client)(...a),
    ...connectionSlice(client)(...a),
    ...settingsSlice(client)(...a),
    ...jobsSlice(...a),
    ...graphSlice(...a),
    ...chatSlice(...a),
    ...toastSlice(...a),
    ...modalSlice(...a),
    ...panelSlice(...a),
    ...composerSlice(...a),
    ...personaSlice(client)(...a),
    ...worldSlice(client)(...a),
    ...trashSlice(...a),
    ...memorySlice(client)(...a),
    ...storySlice(client)(...a),
    ...workersSlice(client)(...a),
    ...mcpSlice(client)(...a),
    ...transcriptSlice(...a),
  }))
  wireTranscript(store)
  wireWorldEvents(client, store)
  wireTrashEvents(client, store)
  wireExternalReplies(client, store)
  wireMemoryEvents(client, store)
  wireStoryEvents(client, store)
  wireBackupNotice(client, store)
  wireWorkerEvents(client, store)
  wireMcpEvents(client, store)
  client.on('settings_updated', (settings) => store.setState({ settings, settingsError: null }))
  client.on('job_progress', (progress) => store.getState().applyJobProgress(progress))
  client.on('node_created', ({ flow_id, node }) => store.getState().upsertNode(node, flow_id))
  client.on('node_updated', ({ node }) => {
    if (store.getState().nodes[node.id]) store.getState().upsertNode(node)
  })
  client.on('node_stream', ({ node_id, delta }) => store.getState().appendStream(node_id, delta))
  client.on('personas_changed', ({ personas }) => store.setState({ personas }))
  client.on('chat_status', ({ node_id, state, message }) =>
    store.getState().setReplyStatus(node_id, { state, message }),
  )
  client.on('flow_changed', (patch) => store.getState().applyFlowPatch(patch))
  client.on('flow_deleted', ({ id }) => {
    void store.getState().loadFlows()
    if (store.getState().flowId === id) void store.getState().openFlow(null)
  })
  client.onState((connection) => {
    store.setState({ connection })
    // The host may have restarted while we were away: refresh what it owns.
    if (connection === 'connected') {
      void Promise.all([store.getState().loadInfo(), store.getState().loadSettings(), store.getState().loadPersonas()])
    }
  })
  return store
}

export const StoreContext = createContext<AppStore | null>(null)

export function useAppStore(): AppStore {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useApp outside <StoreContext.Provider>')
  return store
}

export function useApp<T>(selector: (state: App) => T): T {
  return useAppStore()(selector)
}
