import { memo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Pencil, Pin, PinOff, Settings2, Trash2 } from 'lucide-react'
import type { FlowSummary } from '@shared/contract'
import { useApp } from '../../store'
import { PersonaAvatar } from '../../ui/PersonaAvatar'

/** Every row is this tall (two lines of text and padding): the virtualiser places rows by it. */
export const ROW_HEIGHT = 52

interface Props {
  flow: FlowSummary
  index: number
  /** How many rows the list has (for assistive technology: "3 of 120"). */
  size: number
  top: number
  open: boolean
  personaName: string | null
  when: string
}

/** One conversation: opens on click; pin, rename (inline), settings and delete beside it. */
export const ConversationRow = memo(function ConversationRow({
  flow,
  index,
  size,
  top,
  open,
  personaName,
  when,
}: Props) {
  const { t } = useTranslation()
  // A placeholder reads in the language the UI has now, whichever it was made in.
  const name = flow.name_source === 'placeholder' ? t('graph.defaultFlowName') : flow.name
  const openFlow = useApp((s) => s.openFlow)
  const renameFlow = useApp((s) => s.renameFlow)
  const setFlowPinned = useApp((s) => s.setFlowPinned)
  const deleteFlow = useApp((s) => s.deleteFlow)
  const openModal = useApp((s) => s.openModal)
  const [editing, setEditing] = useState(false)
  const openButton = useRef<HTMLButtonElement>(null)
  // Set once Enter, Escape or leaving the field has ended the edit: the field's blur as it goes
  // must not end it a second time (after Escape, that would save what was typed).
  const ended = useRef(false)

  const startRename = () => {
    ended.current = false
    setEditing(true)
  }
  const finishRename = (typed: string | null) => {
    if (ended.current) return
    ended.current = true
    setEditing(false)
    const trimmed = typed?.trim()
    if (trimmed && trimmed !== name) void renameFlow(flow.id, trimmed)
    // Back where the user was, once the button is drawn again.
    requestAnimationFrame(() => openButton.current?.focus())
  }

  return (
    <li
      className={`conv-row${open ? ' open' : ''}${flow.pinned ? ' pinned' : ''}`}
      data-index={index}
      data-flow-id={flow.id}
      aria-posinset={index + 1}
      aria-setsize={size}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
    >
      {editing ? (
        <input
          className="conv-rename"
          defaultValue={name}
          aria-label={t('conversations.renameLabel', { name })}
          maxLength={200}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') finishRename(e.currentTarget.value)
            else if (e.key === 'Escape') {
              // Only the edit is cancelled, not whatever else Escape closes.
              e.stopPropagation()
              finishRename(null)
            }
          }}
          onBlur={(e) => finishRename(e.currentTarget.value)}
        />
      ) : (
        <button
          ref={openButton}
          type="button"
          className="conv-row-open"
          aria-current={open ? 'true' : undefined}
          onClick={() => !open && void openFlow(flow.id)}
          onDoubleClick={startRename}
          onKeyDown={(e) => {
            if (e.key === 'F2') {
              e.preventDefault()
              startRename()
            }
          }}
        >
          <PersonaAvatar personaId={flow.persona_id} name={personaName} />
          <span className="conv-text">
            <span className={`conv-name${flow.name_source === 'placeholder' ? ' placeholder' : ''}`}>{name}</span>
            <span className="conv-meta">
              {personaName ?? t('conversations.noPersona')} · {t('conversations.turns', { count: flow.node_count })}
            </span>
          </span>
          <span className="conv-when">
            {flow.pinned && <Pin size={12} aria-label={t('conversations.pinned')} className="conv-pin-mark" />}
            <time dateTime={flow.last_activity}>{when}</time>
          </span>
        </button>
      )}
      {!editing && (
        <span className="conv-actions">
          <IconAction
            label={flow.pinned ? t('conversations.unpin') : t('conversations.pin')}
            onClick={() => void setFlowPinned(flow.id, !flow.pinned)}
          >
            {flow.pinned ? <PinOff size={14} aria-hidden /> : <Pin size={14} aria-hidden />}
          </IconAction>
          <IconAction label={t('conversations.rename')} onClick={startRename}>
            <Pencil size={14} aria-hidden />
          </IconAction>
          <IconAction
            label={t('conversations.settings')}
            onClick={() => openModal({ name: 'flow_settings', flowId: flow.id })}
          >
            <Settings2 size={14} aria-hidden />
          </IconAction>
          <IconAction label={t('conversations.delete')} danger onClick={() => void deleteFlow(flow.id)}>
            <Trash2 size={14} aria-hidden />
          </IconAction>
        </span>
      )}
    </li>
  )
})

function IconAction({
  label,
  danger,
  onClick,
  children,
}: {
  label: string
  danger?: boolean
  onClick: () => void
  children: React.ReactNode
}) {
  return (
    <button
      type="button"
      className={`conv-action${danger ? ' danger' : ''}`}
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      {children}
    </button>
  )
}
