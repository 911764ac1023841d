import type { StateCreator } from 'zustand'
import type { App } from './index'

export type Panel = 'search' | 'context' | 'memory' | 'story'

export interface PanelSlice {
  /** The side panel beside the canvas, if open. */
  panel: Panel | null
  togglePanel(panel: Panel): void
}

export const panelSlice: StateCreator<App, [], [], PanelSlice> = (set) => ({
  panel: null,
  togglePanel: (panel) => set((s) => ({ panel: s.panel === panel ? null : panel })),
})
