import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

/** The open conversation's Author's Note: text put in a few messages from the end, every N turns. */
export function AuthorsNoteForm({ flowId }: { flowId: string }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [note, setNote] = useState<{ text: string; depth: string; every: string; from: string } | null>(null)
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    void invoke('get_authors_note', { kind: 'flow', target_id: flowId }).then(
      (n) => n && setNote({ text: n.text, depth: String(n.depth), every: String(n.every), from: n.from }),
    )
  }, [flowId, invoke])
  if (!note) return null
  const depth = Number(note.depth)
  const every = Number(note.every)
  const ok = Number.isInteger(depth) && depth >= 0 && Number.isInteger(every) && every >= 0
  return (
    <details className="authors-note-fold" open={note.from === 'own' || undefined}>
      <summary>{t('lore.note')}</summary>
      <form
        className="authors-note"
        aria-label={t('lore.note')}
        onSubmit={(e) => {
          e.preventDefault()
          void invoke('set_authors_note', {
            kind: 'flow',
            target_id: flowId,
            text: note.text,
            depth,
            every,
            role: 'system',
          }).then((r) => r && setSaved(true))
        }}
      >
        <p className="hint">{note.from === 'persona' ? t('lore.noteFromPersona') : t('lore.noteHint')}</p>
        <textarea
          rows={3}
          aria-label={t('lore.noteText')}
          value={note.text}
          onChange={(e) => (setNote({ ...note, text: e.target.value }), setSaved(false))}
        />
        <div className="lore-row">
          <label className="field">
            {t('lore.noteDepth')}
            <input
              inputMode="numeric"
              value={note.depth}
              onChange={(e) => setNote({ ...note, depth: e.target.value })}
            />
          </label>
          <label className="field">
            {t('lore.noteEvery')}
            <input
              inputMode="numeric"
              value={note.every}
              onChange={(e) => setNote({ ...note, every: e.target.value })}
            />
          </label>
          <button type="submit" disabled={!ok}>
            {saved ? t('lore.noteSaved') : t('lore.noteSave')}
          </button>
        </div>
      </form>
    </details>
  )
}
