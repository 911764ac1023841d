import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SheetVersion } from '@shared/contract'
import { useApp } from '../../store'
import { lineDiff } from './lineDiff'

/** Where the scenario keeps its character sheets (storyProject.ts). */
const SHEETS = /^scenario\/characters\/(.+)\.md$/

/**
 * The character sheets, each opened in the Scenario tab (`onOpen`), and their changes, newest
 * first: each a diff the user can accept or revert (the sheet gets its words back as a version
 * of its own); a refused answer says why. A new sheet can be drawn from the log for a name the
 * user types; the story so far can be made now.
 */
export function SheetsView({ onOpen }: { onOpen: (path: string) => void }) {
  const { t } = useTranslation()
  const story = useApp((s) => s.story)!
  const seq = useApp((s) => s.sheetSeq)
  const invoke = useApp((s) => s.invoke)
  const toast = useApp((s) => s.toast)
  const selectedId = useApp((s) => s.selectedId)
  const sheets = useApp((s) => s.storyFiles).flatMap((f) => {
    const name = SHEETS.exec(f.path)?.[1]
    return name ? [{ path: f.path, name }] : []
  })
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
      <h3 className="story-sheets-heading">{t('story.sheetsHeading')}</h3>
      {sheets.length === 0 ? (
        <p className="hint">{t('story.noSheets')}</p>
      ) : (
        <ul className="story-sheet-list" aria-label={t('story.sheetsHeading')}>
          {sheets.map((s) => (
            <li key={s.path}>
              <button type="button" className="link" onClick={() => onOpen(s.path)}>
                {s.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="story-generate"
        onSubmit={(e) => {
          e.preventDefault()
          if (name.trim()) void generate()
        }}
      >
        {/* The label above, the name and its button on one row: beside the label, the label wrapped in two. */}
        <label className="field" htmlFor="story-generate-name">
          {t('story.generateName')}
        </label>
        <div className="story-generate-row">
          <input
            id="story-generate-name"
            value={name}
            aria-describedby="story-generate-hint"
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" disabled={!name.trim()}>
            {t('story.generate')}
          </button>
        </div>
        <p className="hint" id="story-generate-hint">
          {t('story.generateHint')}
        </p>
      </form>
      <h3 className="story-sheets-heading">{t('story.changesHeading')}</h3>
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
