import type { personaMethods } from '@shared/contract'
import type { HandlerModule } from '../kernel/router'
import type { PersonaService } from './personaService'

export function personaHandlers(personas: PersonaService): HandlerModule<typeof personaMethods> {
  return {
    create_persona: (i) => personas.create(i),
    list_personas: () => personas.list(),
    get_persona: (i) => personas.get(i.id),
    update_persona: (i) => personas.update(i),
    delete_persona: (i) => personas.delete(i.id),
  }
}
