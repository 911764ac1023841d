import { UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { PersonaAvatar } from '../../ui/PersonaAvatar'
import './scene.css'

/** Beside the conversation's title: its group scene's members, or the way to make one. Not in a story. */
export function SceneButton() {
  const { t } = useTranslation()
  const flowId = useApp((s) => s.flowId)
  const cast = useApp((s) => s.flow?.cast)
  const story = useApp((s) => s.story !== null && s.story.flow_id === s.flowId)
  const personas = useApp((s) => s.personas)
  const openModal = useApp((s) => s.openModal)
  if (!flowId || story) return null
  const names = (cast ?? []).map((m) => personas.find((p) => p.id === m.persona_id)?.name ?? '?')
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm scene-button"
      title={cast ? t('scene.membersOf', { names: names.join(', ') }) : t('scene.makeHint')}
      onClick={() => openModal({ name: 'scene', flowId })}
      data-testid="scene-button"
    >
      {cast ? (
        <span className="reading-cast" aria-hidden>
          {cast.slice(0, 4).map((m, i) => (
            <PersonaAvatar key={m.persona_id} personaId={m.persona_id} name={names[i]!} size={20} />
          ))}
        </span>
      ) : (
        <UsersRound size={14} aria-hidden />
      )}
      <span>{cast ? t('scene.count', { count: cast.length }) : t('scene.make')}</span>
    </button>
  )
}
