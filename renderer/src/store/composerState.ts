// What the composer slice holds and offers (its implementation: composerSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

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
