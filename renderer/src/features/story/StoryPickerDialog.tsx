import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { StoryTemplate } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'

const templates: StoryTemplate[] = ['blank', 'fantasy', 'school']

/** Stories: open one, start a new one from a template, or fork one (from the selected node). */
export function StoryPickerDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const stories = useApp((s) => s.stories)
  const loadStories = useApp((s) => s.loadStories)
  const openStory = useApp((s) => s.openStory)
  const initStory = useApp((s) => s.initStory)
  const forkStory = useApp((s) => s.forkStory)
  const selectedId = useApp((s) => s.selectedId)
  const flowId = useApp((s) => s.flowId)
  const [name, setName] = useState('')
  const [template, setTemplate] = useState<StoryTemplate>('fantasy')
  const [language, setLanguage] = useState<'ja' | 'en'>(i18n.language === 'ja' ? 'ja' : 'en')
  const [forking, setForking] = useState<string | null>(null)
  const [forkName, setForkName] = useState('')
  const [fromNode, setFromNode] = useState(true)

  useEffect(() => {
    void loadStories()
  }, [loadStories])

  const create = async () => {
    if (await initStory({ name: name.trim(), template, language })) onClose()
  }
  const fork = async (storyId: string, storyFlow: string) => {
    const at = fromNode && selectedId && flowId === storyFlow ? { from_node_id: selectedId } : {}
    if (await forkStory({ story_id: storyId, name: forkName.trim(), ...at })) onClose()
  }

  return (
    <Dialog title={t('story.title')} onClose={onClose}>
      {stories.length === 0 ? (
        <p className="hint">{t('story.none')}</p>
      ) : (
        <ul className="story-list" aria-label={t('story.listLabel')}>
          {stories.map((s) => (
            <li key={s.id}>
              <span className="story-list-name">{s.name}</span>
              <span className="hint">{t(`story.template.${s.template}`)}</span>
              <button
                type="button"
                className="primary"
                onClick={() => void openStory(s.id).then(onClose)}
                aria-label={t('story.openNamed', { name: s.name })}
              >
                {t('story.open')}
              </button>
              <button
                type="button"
                aria-label={t('story.forkNamed', { name: s.name })}
                onClick={() => {
                  setForking(forking === s.id ? null : s.id)
                  setForkName(t('story.forkDefault', { name: s.name }))
                }}
              >
                {t('story.fork')}
              </button>
              {forking === s.id && (
                <form
                  className="story-fork"
                  onSubmit={(e) => {
                    e.preventDefault()
                    if (forkName.trim()) void fork(s.id, s.flow_id)
                  }}
                >
                  <label>
                    {t('story.forkName')}
                    <input value={forkName} onChange={(e) => setForkName(e.target.value)} />
                  </label>
                  <label className="inline">
                    <input
                      type="checkbox"
                      checked={fromNode}
                      disabled={!selectedId || flowId !== s.flow_id}
                      onChange={(e) => setFromNode(e.target.checked)}
                    />
                    {t('story.forkFromNode')}
                  </label>
                  <button type="submit" className="primary" disabled={!forkName.trim()}>
                    {t('story.forkCreate')}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        className="story-new"
        onSubmit={(e) => {
          e.preventDefault()
          if (name.trim()) void create()
        }}
      >
        <h3>{t('story.new')}</h3>
        <label className="field">
          {t('story.name')}
          <input aria-label={t('story.name')} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          {t('story.templateLabel')}
          <select
            aria-label={t('story.templateLabel')}
            value={template}
            onChange={(e) => setTemplate(e.target.value as StoryTemplate)}
          >
            {templates.map((x) => (
              <option key={x} value={x}>
                {t(`story.template.${x}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t('story.language')}
          <select
            aria-label={t('story.language')}
            value={language}
            onChange={(e) => setLanguage(e.target.value as 'ja' | 'en')}
          >
            <option value="ja">日本語</option>
            <option value="en">English</option>
          </select>
        </label>
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="primary" disabled={!name.trim()}>
            {t('story.create')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
