import { StepForward } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../../store'
import { sceneSpeaker } from '../../store/sceneSpeaker'
import { Button } from '../../ui/Button'
import { PersonaAvatar } from '../../ui/PersonaAvatar'
import { placeChild } from '../../store/placement'
import './scene.css'

/**
 * In a group scene's composer: who answers the message being written (the turn order's choice,
 * which follows the names typed, or a member picked by hand), and "goes on": the next member
 * answers the selected reply without a message from the user.
 */
export function SpeakerPicker({ draft, busy }: { draft: string; busy: boolean }) {
  const { t } = useTranslation()
  const store = useAppStore()
  const cast = useApp((s) => s.flow?.cast)
  const personas = useApp((s) => s.personas)
  const pick = useApp((s) => s.speakerPick)
  const setPick = useApp((s) => s.setSpeakerPick)
  const next = useApp((s) => sceneSpeaker(s, draft.trim()))
  const byOrder = useApp((s) => sceneSpeaker({ ...s, speakerPick: null }, draft.trim()))
  const goesOn = useApp((s) => sceneSpeaker(s, ''))
  const canGoOn = useApp((s) => s.selectedId !== null && !s.asRoot)
  if (!cast || cast.length < 2) return null
  const nameOf = (id: string | null) => (id ? (personas.find((p) => p.id === id)?.name ?? null) : null)

  const goOn = async () => {
    const { flow, positions, selectedId, nextSpeaker } = store.getState()
    if (!flow || !selectedId) return
    const id = await nextSpeaker(placeChild(flow, positions, [selectedId]))
    if (id) store.getState().focusNode(id)
  }

  return (
    <div className="speaker-picker">
      <PersonaAvatar personaId={next} name={nameOf(next)} size={22} />
      <label>
        <span className="speaker-label">{t('scene.speaksNext')}</span>
        <select
          aria-label={t('scene.whoSpeaks')}
          data-testid="speaker-pick"
          value={pick ?? ''}
          onChange={(e) => setPick(e.target.value || null)}
        >
          <option value="">{byOrder ? t('scene.byOrder', { name: nameOf(byOrder) }) : t('scene.everyoneMuted')}</option>
          {cast.map((m) => (
            <option key={m.persona_id} value={m.persona_id}>
              {m.muted ? t('scene.mutedName', { name: nameOf(m.persona_id) }) : nameOf(m.persona_id)}
            </option>
          ))}
        </select>
      </label>
      <Button
        size="sm"
        variant="ghost"
        icon={StepForward}
        className="speaker-go-on"
        disabled={!canGoOn || !goesOn || busy}
        title={t('scene.goOnHint')}
        onClick={() => void goOn()}
      >
        {goesOn ? t('scene.goOn', { name: nameOf(goesOn) }) : t('scene.goOnNobody')}
      </Button>
    </div>
  )
}
