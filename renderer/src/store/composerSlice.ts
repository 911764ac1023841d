import type { StateCreator } from 'zustand'
import type { App } from './index'

export interface ComposerSlice {
  /** The composer's text, shared with the context inspector. */
  draft: string
  setDraft(text: string): void
  /** The next prompt starts a new root although a node is selected: the user chose so in the composer. */
  asRoot: boolean
  setAsRoot(on: boolean): void
  /** A group scene's member picked by hand to answer next; null lets the turn order choose. */
  speakerPick: string | null
  setSpeakerPick(personaId: string | null): void
}

export const composerSlice: StateCreator<App, [], [], ComposerSlice> = (set) => ({
  draft: '',
  setDraft: (draft) => set({ draft }),
  asRoot: false,
  setAsRoot: (asRoot) => set({ asRoot }),
  speakerPick: null,
  setSpeakerPick: (speakerPick) => set({ speakerPick }),
})
