import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import type { App } from './app'
import type { PersonaSlice } from './personaState'

const LAST_PERSONA = 'loomverse.lastPersona'
/** The window's local storage; absent where the store runs without a page (its unit tests). */
const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage)

export const personaSlice =
  (client: Client): StateCreator<App, [], [], PersonaSlice> =>
  (set, get) => ({
    personas: [],
    async loadPersonas() {
      const result = await client.invoke('list_personas', {})
      if (result.ok) set({ personas: result.value })
    },
    async bindPersona(personaId) {
      get().rememberPersona(personaId)
      const flowId = get().flowId
      if (flowId) await get().invoke('update_flow', { id: flowId, persona_id: personaId })
    },
    nextPersonaId: storage()?.getItem(LAST_PERSONA) ?? null,
    rememberPersona(personaId) {
      if (personaId) storage()?.setItem(LAST_PERSONA, personaId)
      else storage()?.removeItem(LAST_PERSONA)
      set({ nextPersonaId: personaId })
    },
  })
