import type { StateCreator } from 'zustand'
import type { App } from './index'

export interface ComposerSlice {
  /** The composer's text, shared with the context inspector. */
  draft: string
  setDraft(text: string): void
}

export const composerSlice: StateCreator<App, [], [], ComposerSlice> = (set) => ({
  draft: '',
  setDraft: (draft) => set({ draft }),
})
