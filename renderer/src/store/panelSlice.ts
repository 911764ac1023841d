import type { StateCreator } from 'zustand'
import type { App } from './app'
import type { PanelSlice } from './panelState'

export const panelSlice: StateCreator<App, [], [], PanelSlice> = (set) => ({
  panel: null,
  togglePanel: (panel) => set((s) => ({ panel: s.panel === panel ? null : panel })),
})
