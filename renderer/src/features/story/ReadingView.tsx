import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { StorySave } from '@shared/contract'
import { useApp } from '../../store'
import { MarkdownText } from '../../ui/MarkdownText'

/**
 * The story as a novel: the active path (the opening scene to where play stands) as continuous
 * text, the player's turns set apart; then the player's input (Ctrl/Cmd+Enter sends) and the
 * story's Save / Load / Undo / Redo, the story so far, and export.
 */
export function ReadingView() {
  const { t } = useTranslation()
  const story = useApp((s) => s.story)!
  const summary = useApp((s) => s.storySummary)
  const selectedId = useApp((s) => s.selectedId)
  const flow = useApp((s) => s.flow)
  const nodes = useApp((s) => s.nodes)
  const replyStatus = useApp((s) => s.replyStatus)
  const send = useApp((s) => s.sendStoryTurn)
  const moveStory = useApp((s) => s.moveStory)
  const invoke = useApp((s) => s.invoke)
  const toast = useApp((s) => s.toast)
  const [text, setText] = useState('')
  const [saves, setSaves] = useState<StorySave[] | null>(null)
  const [saveName, setSaveName] = useState<string | null>(null)

  const at = flow?.id === story.flow_id ? (selectedId ?? story.current_node_id) : story.current_node_id
  const path = useMemo(() => {
    const ids: string[] = []
    const parentOf = new Map<string, string>()
    for (const c of flow?.connections ?? []) if (!parentOf.has(c.to)) parentOf.set(c.to, c.from)
    for (let id = at; id && ids.length < 10_000; id = parentOf.get(id) ?? null) ids.unshift(id)
    return ids
  }, [flow, at])
  const last = at ? nodes[at] : undefined
  const thinking = last?.status === 'streaming' && !last.response && replyStatus[last.id]?.state !== 'failed'

  useEffect(() => {
    // The newest words in view, as a reader expects after each turn.
    document.querySelector('.story-text-end')?.scrollIntoView({ block: 'end' })
  }, [path.length, last?.response.length])

  const submit = async () => {
    const prompt = text.trim()
    if (!prompt || thinking) return
    if (await send(prompt)) setText('')
  }
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
      {summary && (
        <details className="story-summary">
          <summary>{t('story.soFar')}</summary>
          <p>{summary.text}</p>
        </details>
      )}
      <article className="story-text" aria-label={t('story.text')}>
        {path.map((id) => {
          const n = nodes[id]
          if (!n) return null
          return (
            <div key={id} className="story-turn">
              {n.prompt && <p className="story-player">{n.prompt}</p>}
              {n.response && (n.status === 'streaming' ? <p>{n.response}</p> : <MarkdownText text={n.response} />)}
            </div>
          )
        })}
        {thinking && (
          <p className="story-thinking" role="status">
            {t('story.thinking')}
          </p>
        )}
        <span className="story-text-end" />
      </article>
      <textarea
        aria-label={t('story.input')}
        placeholder={t('story.inputPlaceholder')}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault()
            void submit()
          }
        }}
      />
      <div className="story-actions">
        <button type="button" className="primary" disabled={!text.trim() || thinking} onClick={() => void submit()}>
          {t('story.send')}
        </button>
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
