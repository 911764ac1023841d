import { useTranslation } from 'react-i18next'
import { UsersRound } from 'lucide-react'
import { useApp } from '../store'
import { IconButton } from '../ui/Button'
import { PersonaOptions } from '../ui/PersonaOptions'

/** Who speaks in the open conversation; also the way into managing personas. */
export function PersonaPicker() {
  const { t } = useTranslation()
  const personas = useApp((s) => s.personas)
  const flowId = useApp((s) => s.flowId)
  // Before any conversation exists the picker chooses who the next one starts with.
  const bound = useApp((s) => (s.flowId ? (s.flow?.persona_id ?? '') : (s.nextPersonaId ?? '')))
  const bind = useApp((s) => s.bindPersona)
  // A group scene's members are chosen in its dialog: the picker shows its first and stays put.
  const scene = useApp((s) => s.flowId !== null && (s.flow?.cast?.length ?? 0) >= 2)
  const openModal = useApp((s) => s.openModal)
  return (
    <div className="flow-picker persona-picker">
      <label className="picker">
        <span>{t('header.persona')}</span>
        <select
          aria-label={t('header.persona')}
          value={bound}
          title={scene ? t('header.personaInScene') : flowId ? undefined : t('header.personaForNext')}
          disabled={scene}
          onChange={(e) => void bind(e.target.value || null)}
        >
          <option value="">{personas.length === 0 ? t('header.noPersonas') : t('persona.nobody')}</option>
          <PersonaOptions />
        </select>
      </label>
      <IconButton
        label={t('persona.manage')}
        icon={UsersRound}
        onClick={() => openModal({ name: 'personas' })}
        data-testid="header-personas"
      />
    </div>
  )
}
