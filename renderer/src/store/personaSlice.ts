import type { StateCreator } from 'zustand'
import type { Persona } from '@shared/contract'
import type { Client } from '../bridge'
import type { App } from './index'

export interface PersonaSlice {
  personas: Persona[]
  loadPersonas(): Promise<void>
  /** Binds the open conversation to a persona (null: nobody). */
  bindPersona(personaId: string | null): Promise<void>
}

export const personaSlice =
  (client: Client): StateCreator<App, [], [], PersonaSlice> =>
  (set, get) => ({
    personas: [],
    async loadPersonas() {
      const result = await client.invoke('list_personas', {})
      if (result.ok) set({ personas: result.value })
    },
    async bindPersona(personaId) {
      const flowId = get().flowId
      if (flowId) await get().invoke('update_flow', { id: flowId, persona_id: personaId })
    },
  })
