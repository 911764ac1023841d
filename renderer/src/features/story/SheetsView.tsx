import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SheetVersion } from '@shared/contract'
import { useApp } from '../../store'
import { lineDiff } from './lineDiff'

/**
 * The character sheets' changes, newest first: each a diff the user can accept or revert (the
 * sheet gets its words back as a version of its own); a refused answer says why. A new sheet
 * can be drawn from the log for a name the user types; the story so far can be made now.
 */
export function SheetsView() {
  const { t } = useTranslation()
  const story = useApp((s) => s.story)!
  const seq = useApp((s) => s.sheetSeq)
  const invoke = useApp((s) => s.invoke)
  const toast = useApp((s) => s.toast)
  const selectedId = useApp((s) => s.selectedId)
  const [versions, setVersions] = useState<SheetVersion[]>([])
  const [name, setName] = useState('')

  useEffect(() => {
    void invoke('story_sheet_versions', { story_id: story.id }).then((v) => v && setVersions(v))
  }, [invoke, story.id, story.updated_at, seq])

  const review = async (v: SheetVersion, action: 'accept' | 'revert') => {
    if (await invoke('story_sheet_review', { story_id: story.id, version_id: v.id, action })) {
      const next = await invoke('story_sheet_versions', { story_id: story.id })
      if (next) setVersions(next)
    }
  }
  const generate = async () => {
    const r = await invoke('story_generate_character', { story_id: story.id, name: name.trim() })
    if (r) {
      toast('info', t('story.generating', { path: r.path }))
      setName('')
    }
  }
  const summarize = async () => {
    const at = selectedId ?? story.current_node_id
    if (!at) return
    const r = await invoke('story_summarize', { story_id: story.id, node_id: at })
    if (r) toast('info', r.queued ? t('story.summarizing') : t('story.nothingToSummarize'))
  }

  return (
    <div className="story-sheets">
      <div className="story-actions">
        <button type="button" onClick={() => void summarize()}>
          {t('story.summarizeNow')}
        </button>
      </div>
      <form
        className="story-generate"
        onSubmit={(e) => {
          e.preventDefault()
          if (name.trim()) void generate()
        }}
      >
        <label>
          {t('story.generateName')}
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" disabled={!name.trim()}>
          {t('story.generate')}
        </button>
      </form>
      {versions.length === 0 && <p className="hint">{t('story.noVersions')}</p>}
      <ul className="story-versions" aria-label={t('story.versionsLabel')}>
        {versions.map((v) => (
          <li key={v.id} className={`story-version status-${v.status}`}>
            <div className="story-version-head">
              <strong>{v.path.replace(/^scenario\/characters\//, '')}</strong>
              <span className="badge">{t(`story.reason.${v.reason}`)}</span>
              <span className="badge">{t(`story.status.${v.status}`)}</span>
            </div>
            {v.note && <p className="hint">{v.note}</p>}
            {v.status !== 'refused' && (
              <pre className="story-diff" aria-label={t('story.diffLabel', { path: v.path })}>
                {lineDiff(v.before ?? '', v.after)
                  .filter((l) => l.kind !== 'same')
                  .map((l, i) => (
                    <span key={i} className={`diff-${l.kind}`}>
                      {l.kind === 'added' ? '+ ' : '- '}
                      {l.text}
                      {'\n'}
                    </span>
                  ))}
              </pre>
            )}
            {(v.status === 'unreviewed' || v.status === 'accepted') && v.reason !== 'revert' && (
              <div className="dialog-actions start">
                {v.status === 'unreviewed' && (
                  <button type="button" onClick={() => void review(v, 'accept')}>
                    {t('story.accept')}
                  </button>
                )}
                <button type="button" onClick={() => void review(v, 'revert')}>
                  {t('story.revert')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}
