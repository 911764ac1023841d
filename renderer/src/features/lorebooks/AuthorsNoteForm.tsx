import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AuthorsNote } from '@shared/contract'
import { useApp } from '../../store'
import { RoleField } from './RoleField'

/**
 * An Author's Note: text put in a few messages from the end, every N turns. A conversation's
 * own (the open one), or a persona's, which its conversations use until they have their own.
 */
export function AuthorsNoteForm({ kind, targetId }: { kind: 'flow' | 'persona'; targetId: string }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [note, setNote] = useState<{
    text: string
    depth: string
    every: string
    role: AuthorsNote['role']
    from: string
  } | null>(null)
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    void invoke('get_authors_note', { kind, target_id: targetId }).then(
      (n) => n && setNote({ text: n.text, depth: String(n.depth), every: String(n.every), role: n.role, from: n.from }),
    )
  }, [kind, targetId, invoke])
  if (!note) return null
  const depth = Number(note.depth)
  const every = Number(note.every)
  const ok = Number.isInteger(depth) && depth >= 0 && Number.isInteger(every) && every >= 0
  const title = kind === 'flow' ? t('lore.note') : t('lore.personaNote')
  const edit = (fields: Partial<typeof note>) => (setNote({ ...note, ...fields }), setSaved(false))
  return (
    <details className="authors-note-fold" open={note.from === 'own' || undefined}>
      <summary>{title}</summary>
      <div
        role="form"
        className="authors-note"
        aria-label={title}
        onKeyDown={(e) => {
          // A note is its own form inside the persona's: Enter in a field saves the note only.
          if (e.key === 'Enter' && e.target instanceof HTMLInputElement) e.preventDefault()
        }}
      >
        <p className="hint">
          {kind === 'persona'
            ? t('lore.personaNoteHint')
            : note.from === 'persona'
              ? t('lore.noteFromPersona')
              : t('lore.noteHint')}
        </p>
        <textarea
          rows={3}
          aria-label={t('lore.noteText')}
          value={note.text}
          onChange={(e) => edit({ text: e.target.value })}
        />
        <div className="lore-row">
          <label className="field">
            {t('lore.noteDepth')}
            <input inputMode="numeric" value={note.depth} onChange={(e) => edit({ depth: e.target.value })} />
          </label>
          <label className="field">
            {t('lore.noteEvery')}
            <input inputMode="numeric" value={note.every} onChange={(e) => edit({ every: e.target.value })} />
          </label>
          <RoleField value={note.role} onChange={(role) => edit({ role })} />
          <button
            type="button"
            disabled={!ok}
            onClick={() =>
              void invoke('set_authors_note', {
                kind,
                target_id: targetId,
                text: note.text,
                depth,
                every,
                role: note.role,
              }).then((r) => r && setSaved(true))
            }
          >
            {saved ? t('lore.noteSaved') : t('lore.noteSave')}
          </button>
        </div>
      </div>
    </details>
  )
}
