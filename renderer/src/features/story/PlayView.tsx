import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { StorySave } from '@shared/contract'
import { useApp } from '../../store'

/**
 * Play: the story is read in the transcript beside this panel and the player's turn typed under
 * it; here are the story so far and the story's Save / Load / Undo / Redo and export.
 */
export function PlayView() {
  const { t } = useTranslation()
  const story = useApp((s) => s.story)!
  const summary = useApp((s) => s.storySummary)
  const selectedId = useApp((s) => s.selectedId)
  const flowId = useApp((s) => s.flowId)
  const moveStory = useApp((s) => s.moveStory)
  const invoke = useApp((s) => s.invoke)
  const toast = useApp((s) => s.toast)
  const [saves, setSaves] = useState<StorySave[] | null>(null)
  const [saveName, setSaveName] = useState<string | null>(null)

  const at = flowId === story.flow_id ? (selectedId ?? story.current_node_id) : story.current_node_id

  const save = async () => {
    if (!at || !saveName?.trim()) return
    const made = await invoke('story_save', { story_id: story.id, node_id: at, name: saveName.trim() })
    if (made) {
      toast('info', t('story.saved', { name: made.name }))
      setSaveName(null)
    }
  }
  const showSaves = async () => {
    if (saves) return setSaves(null)
    setSaves((await invoke('story_saves', { story_id: story.id })) ?? [])
  }
  const exportMarkdown = async () => {
    const r = await invoke('export_markdown', { flow_id: story.flow_id, ...(at ? { node_id: at } : {}) })
    if (r) toast('info', t('story.exported', { file: r.file }))
  }

  return (
    <div className="story-read">
      <p className="hint">{t('story.playHint')}</p>
      {summary && (
        <details className="story-summary" open>
          <summary>{t('story.soFar')}</summary>
          <p>{summary.text}</p>
        </details>
      )}
      <div className="story-actions">
        <button type="button" onClick={() => setSaveName(saveName === null ? t('story.saveDefault') : null)}>
          {t('story.save')}
        </button>
        <button type="button" aria-expanded={saves !== null} onClick={() => void showSaves()}>
          {t('story.load')}
        </button>
        <button type="button" onClick={() => void moveStory({ method: 'story_undo' })}>
          {t('story.undo')}
        </button>
        <button type="button" disabled={!story.redo_node_id} onClick={() => void moveStory({ method: 'story_redo' })}>
          {t('story.redo')}
        </button>
        <button type="button" onClick={() => void exportMarkdown()}>
          {t('story.export')}
        </button>
      </div>
      {saveName !== null && (
        <form
          className="story-save"
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <label>
            {t('story.saveName')}
            <input value={saveName} onChange={(e) => setSaveName(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={!saveName.trim()}>
            {t('story.saveConfirm')}
          </button>
        </form>
      )}
      {saves && (
        <ul className="story-saves" aria-label={t('story.savesLabel')}>
          {saves.length === 0 && <li className="hint">{t('story.noSaves')}</li>}
          {saves.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className="link"
                onClick={() => void moveStory({ method: 'story_load', saveId: s.id }).then(() => setSaves(null))}
              >
                {t('story.saveLine', { name: s.name, turn: s.turn, when: new Date(s.created_at).toLocaleString() })}
              </button>
              <span className="hint">{s.preview}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
