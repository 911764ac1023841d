import { nextSpeaker } from '@shared/groupTurns'
import type { App } from './app'

/**
 * Who answers the composer's next message in a group scene (shared/groupTurns.ts, the rule the
 * main process applies too): the member picked by hand, else the one the turn order chooses
 * after the selected reply's speaker, reading `prompt` for names. Null outside a scene, or when
 * every member is muted and nobody was picked.
 */
export function sceneSpeaker(s: App, prompt: string): string | null {
  const flow = s.flow
  if (!flow?.cast || flow.cast.length < 2) return null
  const parent = !s.asRoot && s.selectedId ? s.nodes[s.selectedId] : undefined
  const lastSpeaker = parent?.response ? (parent.metadata.speaker_id ?? flow.persona_id) : null
  return nextSpeaker({
    cast: flow.cast,
    order: flow.turn_order ?? 'addressed',
    nameOf: (id) => s.personas.find((p) => p.id === id)?.name,
    prompt,
    lastSpeaker,
    lastReply: parent?.response,
    picked: s.speakerPick,
  })
}
