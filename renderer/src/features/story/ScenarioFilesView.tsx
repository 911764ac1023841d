import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { MarkdownText } from '../../ui/MarkdownText'

interface Open {
  path: string
  /** The file's hash when the editor took it: a save names it, so an outside edit is never overwritten. */
  base: string
  saved: string
  draft: string
}

/**
 * The scenario's Markdown files, editable here as in any editor outside. When the file changed
 * outside since it was opened, both versions are shown and the user decides which words stay.
 */
export function ScenarioFilesView({ opening = null }: { opening?: string | null } = {}) {
  const { t } = useTranslation()
  const story = useApp((s) => s.story)!
  const files = useApp((s) => s.storyFiles)
  const external = useApp((s) => s.storyExternal)
  const clearExternal = useApp((s) => s.clearExternal)
  const invoke = useApp((s) => s.invoke)
  const [open, setOpen] = useState<Open | null>(null)
  const [preview, setPreview] = useState(false)
  const [theirs, setTheirs] = useState<{ content: string; hash: string } | null>(null)

  const show = (path: string, file: { hash: string; content: string }) => {
    clearExternal(path)
    setTheirs(null)
    setOpen({ path, base: file.hash, saved: file.content, draft: file.content })
  }
  const read = async (path: string) => {
    const file = await invoke('story_read_file', { story_id: story.id, path })
    if (file) show(path, file)
  }
  const save = async (base = open?.base) => {
    if (!open || base === undefined) return
    const written = await invoke('story_update_file', {
      story_id: story.id,
      path: open.path,
      content: open.draft,
      base_hash: base,
    })
    if (written) {
      clearExternal(open.path)
      setTheirs(null)
      setOpen({ ...open, base: written.hash, saved: open.draft })
      return
    }
    // Refused: if the file moved on outside, show both versions.
    const now = await invoke('story_read_file', { story_id: story.id, path: open.path })
    if (now && now.hash !== open.base) setTheirs({ content: now.content, hash: now.hash })
  }
  // A file another tab asked for (a character sheet) opens as if the user had picked it here.
  useEffect(() => {
    if (!opening) return
    void invoke('story_read_file', { story_id: story.id, path: opening }).then((file) => file && show(opening, file))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per file asked for
  }, [opening, invoke, story.id])
  const changedOutside = open ? external[open.path] !== undefined && !theirs : false

  return (
    <div className="story-files">
      <ul className="story-file-list" aria-label={t('story.filesLabel')}>
        {files.map((f) => (
          <li key={f.path}>
            <button
              type="button"
              className="link"
              aria-current={open?.path === f.path}
              onClick={() => void read(f.path)}
            >
              {f.path.replace(/^scenario\//, '')}
            </button>
            {external[f.path] !== undefined && <span className="badge badge-stale">{t('story.changedOutside')}</span>}
          </li>
        ))}
      </ul>
      {open && (
        <div className="story-editor">
          <div className="story-editor-bar">
            <strong>{open.path}</strong>
            <button type="button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
              {t('story.preview')}
            </button>
          </div>
          {changedOutside && (
            <p role="alert" className="story-conflict-note">
              {t('story.changedOutsideHint')}{' '}
              <button
                type="button"
                className="link"
                onClick={() =>
                  void invoke('story_read_file', { story_id: story.id, path: open.path }).then(
                    (now) => now && setTheirs({ content: now.content, hash: now.hash }),
                  )
                }
              >
                {t('story.compare')}
              </button>
            </p>
          )}
          {preview ? (
            <div className="markdown story-preview">
              <MarkdownText text={open.draft} />
            </div>
          ) : (
            <textarea
              aria-label={t('story.editorLabel', { path: open.path })}
              rows={14}
              value={open.draft}
              onChange={(e) => setOpen({ ...open, draft: e.target.value })}
            />
          )}
          <div className="dialog-actions">
            <button
              type="button"
              disabled={open.draft === open.saved}
              onClick={() => setOpen({ ...open, draft: open.saved })}
            >
              {t('story.discard')}
            </button>
            <button type="button" className="primary" disabled={open.draft === open.saved} onClick={() => void save()}>
              {t('story.saveFile')}
            </button>
          </div>
          {theirs && (
            <div className="story-conflict" role="group" aria-label={t('story.conflict')}>
              <p>{t('story.conflictHint')}</p>
              <pre className="story-theirs" aria-label={t('story.theirs')}>
                {theirs.content}
              </pre>
              <div className="dialog-actions">
                <button
                  type="button"
                  onClick={() => {
                    clearExternal(open.path)
                    setOpen({ ...open, base: theirs.hash, saved: theirs.content, draft: theirs.content })
                    setTheirs(null)
                  }}
                >
                  {t('story.takeTheirs')}
                </button>
                <button type="button" onClick={() => void navigator.clipboard?.writeText(theirs.content)}>
                  {t('story.copyTheirs')}
                </button>
                <button type="button" className="primary" onClick={() => void save(theirs.hash)}>
                  {t('story.keepMine')}
                </button>
              </div>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
