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
    get_persona_avatar: (i) => personas.avatar(i.id),
    set_persona_avatar: (i) =>
      personas.setAvatar(i.id, i.data_base64 === null ? null : Buffer.from(i.data_base64, 'base64')),
  }
}
