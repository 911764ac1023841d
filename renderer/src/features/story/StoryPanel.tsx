import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { PlayView } from './PlayView'
import { ScenarioFilesView } from './ScenarioFilesView'
import { SheetsView } from './SheetsView'

type Tab = 'read' | 'files' | 'sheets'

/** The open story beside its transcript: play (saves, undo, the story so far), its scenario files, its character sheets. */
export function StoryPanel() {
  const { t } = useTranslation()
  const story = useApp((s) => s.story)
  const [tab, setTab] = useState<Tab>('read')
  /** A sheet the Characters tab opened: the Scenario tab shows it (only in the story it belongs to). */
  const [opened, setOpened] = useState<{ storyId: string; path: string } | null>(null)
  // The story reads in the transcript: hiding the graph leaves the transcript and this panel.
  const graphHidden = useApp((s) => s.readingLayout === 'transcript')
  const setLayout = useApp((s) => s.setReadingLayout)
  if (!story) return null
  return (
    <section className="side-panel story-panel" aria-label={t('story.panel', { name: story.name })}>
      <div className="story-panel-head">
        <h2>{story.name}</h2>
        <button type="button" aria-pressed={graphHidden} onClick={() => setLayout(graphHidden ? 'both' : 'transcript')}>
          {t('story.readingOnly')}
        </button>
      </div>
      <div className="story-tabs" role="tablist">
        {(['read', 'files', 'sheets'] as const).map((x) => (
          <button
            key={x}
            type="button"
            role="tab"
            aria-selected={tab === x}
            onClick={() => {
              setOpened(null)
              setTab(x)
            }}
          >
            {t(`story.tab.${x}`)}
          </button>
        ))}
      </div>
      {/* Keyed by the story: words typed or a file being edited for one story never carry over to another. */}
      {tab === 'read' && <PlayView key={story.id} />}
      {tab === 'files' && (
        <ScenarioFilesView key={story.id} opening={opened?.storyId === story.id ? opened.path : null} />
      )}
      {tab === 'sheets' && (
        <SheetsView
          key={story.id}
          onOpen={(path) => {
            setOpened({ storyId: story.id, path })
            setTab('files')
          }}
        />
      )}
    </section>
  )
}
