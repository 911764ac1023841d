import type { Persona } from '@shared/contract'

// What the persona slice holds and offers (its implementation: personaSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface PersonaSlice {
  personas: Persona[]
  loadPersonas(): Promise<void>
  /** Binds the open conversation to a persona (null: nobody). */
  bindPersona(personaId: string | null): Promise<void>
  /** The persona a new conversation starts with: the one used or made last (kept across restarts). */
  nextPersonaId: string | null
  rememberPersona(personaId: string | null): void
}
