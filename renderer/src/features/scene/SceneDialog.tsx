import { ArrowDown, ArrowUp, X } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CAST_MAX, type CastMember, type TurnOrder } from '@shared/contract'
import { useApp } from '../../store'
import { Button, IconButton } from '../../ui/Button'
import { Dialog } from '../../ui/Dialog'
import { PersonaAvatar } from '../../ui/PersonaAvatar'
import './scene.css'

const ORDERS: TurnOrder[] = ['addressed', 'round_robin', 'manual']

/**
 * A conversation's group scene: its members in the order they take turns (each may be muted:
 * present, never chosen by itself), and how the next speaker is chosen. One member makes a
 * plain conversation again.
 */
export function SceneDialog({ flowId, onClose }: { flowId: string; onClose: () => void }) {
  const { t } = useTranslation()
  const flow = useApp((s) => (s.flow?.id === flowId ? s.flow : null))
  const personas = useApp((s) => s.personas)
  const invoke = useApp((s) => s.invoke)
  const [cast, setCast] = useState<CastMember[]>(
    () => flow?.cast ?? (flow?.persona_id ? [{ persona_id: flow.persona_id, muted: false }] : []),
  )
  const [order, setOrder] = useState<TurnOrder>(flow?.turn_order ?? 'addressed')
  const outside = personas.filter((p) => !cast.some((m) => m.persona_id === p.id))
  const [adding, setAdding] = useState('')
  const nameOf = (id: string) => personas.find((p) => p.id === id)?.name ?? t('scene.unknown')

  const move = (i: number, by: number) =>
    setCast((c) => {
      const next = [...c]
      const [m] = next.splice(i, 1)
      next.splice(i + by, 0, m!)
      return next
    })
  const save = async () => {
    const saved = await invoke('update_flow', { id: flowId, cast, turn_order: order })
    if (saved) onClose()
  }

  return (
    <Dialog title={t('scene.title')} onClose={onClose} className="scene-dialog">
      <p className="hint">{t('scene.intro')}</p>
      <ol className="scene-members" aria-label={t('scene.members')}>
        {cast.map((m, i) => (
          <li key={m.persona_id} className={m.muted ? 'muted' : undefined} data-testid="scene-member">
            <PersonaAvatar personaId={m.persona_id} name={nameOf(m.persona_id)} size={24} />
            <span className="scene-member-name">{nameOf(m.persona_id)}</span>
            <label className="scene-mute">
              <input
                type="checkbox"
                checked={m.muted}
                onChange={(e) => setCast((c) => c.map((x, j) => (j === i ? { ...x, muted: e.target.checked } : x)))}
              />
              {t('scene.muted')}
            </label>
            <IconButton
              size="sm"
              label={t('scene.up', { name: nameOf(m.persona_id) })}
              icon={ArrowUp}
              disabled={i === 0}
              onClick={() => move(i, -1)}
            />
            <IconButton
              size="sm"
              label={t('scene.down', { name: nameOf(m.persona_id) })}
              icon={ArrowDown}
              disabled={i === cast.length - 1}
              onClick={() => move(i, 1)}
            />
            <IconButton
              size="sm"
              label={t('scene.remove', { name: nameOf(m.persona_id) })}
              icon={X}
              onClick={() => setCast((c) => c.filter((_, j) => j !== i))}
            />
          </li>
        ))}
      </ol>
      {cast.length < 2 && <p className="hint">{t('scene.needTwo')}</p>}
      <div className="scene-add">
        <select
          aria-label={t('scene.addWho')}
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
          disabled={outside.length === 0 || cast.length >= CAST_MAX}
        >
          <option value="">{outside.length === 0 ? t('scene.nobodyLeft') : t('scene.choose')}</option>
          {outside.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <Button
          size="sm"
          disabled={!adding}
          onClick={() => {
            setCast((c) => [...c, { persona_id: adding, muted: false }])
            setAdding('')
          }}
        >
          {t('scene.add')}
        </Button>
      </div>
      <fieldset className="scene-order">
        <legend>{t('scene.order')}</legend>
        {ORDERS.map((o) => (
          <label key={o}>
            <input type="radio" name="turn-order" checked={order === o} onChange={() => setOrder(o)} />
            <span>
              <strong>{t(`scene.orders.${o}`)}</strong>
              <span className="hint">{t(`scene.orderHints.${o}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="primary" onClick={() => void save()}>
          {t('common.save')}
        </button>
      </div>
    </Dialog>
  )
}
