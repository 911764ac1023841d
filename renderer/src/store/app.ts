import type { StoreApi, UseBoundStore } from 'zustand'
import type { ChatSlice } from './chatState'
import type { ComposerSlice } from './composerState'
import type { ConnectionSlice } from './connectionState'
import type { GraphSlice } from './graphState'
import type { InvokeSlice } from './invokeState'
import type { JobsSlice } from './jobsState'
import type { McpSlice } from './mcpState'
import type { MemorySlice } from './memoryState'
import type { ModalSlice } from './modalState'
import type { PanelSlice } from './panelState'
import type { PersonaSlice } from './personaState'
import type { SettingsSlice } from './settingsState'
import type { StorySlice } from './storyState'
import type { ToastSlice } from './toastState'
import type { TranscriptSlice } from './transcriptState'
import type { TrashSlice } from './trashState'
import type { WorkersSlice } from './workersState'
import type { WorldSlice } from './worldState'

/** The renderer's whole state: every slice's (each declared in its `…State.ts`). */
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
