import type { StateCreator } from 'zustand'
import type { App } from './app'
import type { ComposerSlice } from './composerState'

export const composerSlice: StateCreator<App, [], [], ComposerSlice> = (set) => ({
  draft: '',
  setDraft: (draft) => set({ draft }),
  asRoot: false,
  setAsRoot: (asRoot) => set({ asRoot }),
  speakerPick: null,
  setSpeakerPick: (speakerPick) => set({ speakerPick }),
})
