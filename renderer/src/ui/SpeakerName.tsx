import { useApp } from '../store'
import { PersonaAvatar } from './PersonaAvatar'
import './speakerName.css'

/**
 * Who spoke a reply, with the persona's avatar: shown in a group scene, and wherever a reply was
 * spoken by someone other than the conversation's persona. Nothing otherwise.
 */
export function SpeakerName({
  nodeId,
  className,
  avatar = 18,
}: {
  nodeId: string
  className: string
  avatar?: number
}) {
  const speakerId = useApp((s) => {
    const node = s.nodes[nodeId]
    const flow = s.flow
    if (!node || !flow) return null
    const speaker = node.metadata.speaker_id ?? flow.persona_id
    const scene = (flow.cast?.length ?? 0) >= 2
    return speaker && (scene || speaker !== flow.persona_id) ? speaker : null
  })
  const name = useApp((s) => (speakerId ? (s.personas.find((p) => p.id === speakerId)?.name ?? null) : null))
  if (!speakerId || !name) return null
  return (
    <span className={className}>
      <PersonaAvatar personaId={speakerId} name={name} size={avatar} />
      <span data-testid="speaker-name">{name}</span>
    </span>
  )
}
