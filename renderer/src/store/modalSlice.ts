import type { StateCreator } from 'zustand'
import type { App } from './index'

/** Every dialog by name with its options (Actual Budget's pattern): one place lists them all. */
export type Modal =
  | { name: 'edit_prompt'; nodeId: string }
  | { name: 'delete_node'; nodeId: string }
  | { name: 'flow_settings'; flowId: string }
  | { name: 'delete_flow'; flowId: string }
  | { name: 'personas' }
  | { name: 'providers' }
  | { name: 'onboarding' }

export type Panel = 'search' | 'context' | 'memory'

export interface ModalSlice {
  modal: Modal | null
  openModal(modal: Modal): void
  closeModal(): void
  /** The side panel beside the canvas, if open. */
  panel: Panel | null
  togglePanel(panel: Panel): void
  /** The composer's text, shared with the context inspector. */
  draft: string
  setDraft(text: string): void
}

export const modalSlice: StateCreator<App, [], [], ModalSlice> = (set) => ({
  modal: null,
  openModal: (modal) => set({ modal }),
  closeModal: () => set({ modal: null }),
  panel: null,
  togglePanel: (panel) => set((s) => ({ panel: s.panel === panel ? null : panel })),
  draft: '',
  setDraft: (draft) => set({ draft }),
})
