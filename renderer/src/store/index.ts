import { createContext, useContext } from 'react'
import { create, type StoreApi, type UseBoundStore } from 'zustand'
import type { Client } from '../bridge'
import { chatSlice, type ChatSlice } from './chatSlice'
import { composerSlice, type ComposerSlice } from './composerSlice'
import { connectionSlice, type ConnectionSlice } from './connectionSlice'
import { graphSlice, type GraphSlice } from './graphSlice'
import { invokeSlice, type InvokeSlice } from './invokeSlice'
import { jobsSlice, type JobsSlice } from './jobsSlice'
import { mcpSlice, wireMcpEvents, type McpSlice } from './mcpSlice'
import { memorySlice, wireMemoryEvents, type MemorySlice } from './memorySlice'
import { modalSlice, type ModalSlice } from './modalSlice'
import { panelSlice, type PanelSlice } from './panelSlice'
import { personaSlice, type PersonaSlice } from './personaSlice'
import { settingsSlice, type SettingsSlice } from './settingsSlice'
import { storySlice, wireStoryEvents, type StorySlice } from './storySlice'
import { toastSlice, wireExternalReplies, type ToastSlice } from './toastSlice'
import { transcriptSlice, wireTranscript, type TranscriptSlice } from './transcriptSlice'
import { trashSlice, wireTrashEvents, type TrashSlice } from './trashSlice'
import { wireWorldEvents, worldSlice, type WorldSlice } from './worldSlice'
import { wireBackupNotice } from './backupNotice'
import { wireWorkerEvents, workersSlice, type WorkersSlice } from './workersSlice'

export type App = InvokeSlice &
  ConnectionSlice &
  ChatSlice &
  SettingsSlice &
  JobsSlice &
  GraphSlice &
  ToastSlice &
  ModalSlice &
  PanelSlice &
  ComposerSlice &
  PersonaSlice &
  WorldSlice &
  TrashSlice &
  MemorySlice &
  StorySlice &
  WorkersSlice &
  McpSlice &
  TranscriptSlice
export type AppStore = UseBoundStore<StoreApi<App>>

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
