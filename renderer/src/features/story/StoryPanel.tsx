import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { ReadingView } from './ReadingView'
import { ScenarioFilesView } from './ScenarioFilesView'
import { SheetsView } from './SheetsView'

type Tab = 'read' | 'files' | 'sheets'

/** The open story beside the canvas: the story read as a novel, its scenario files, its character sheets. */
export function StoryPanel() {
  const { t } = useTranslation()
  const story = useApp((s) => s.story)
  const [tab, setTab] = useState<Tab>('read')
  const readingOnly = useApp((s) => s.readingOnly)
  const setReadingOnly = useApp((s) => s.setReadingOnly)
  if (!story) return null
  return (
    <section className="side-panel story-panel" aria-label={t('story.panel', { name: story.name })}>
      <div className="story-panel-head">
        <h2>{story.name}</h2>
        <button type="button" aria-pressed={readingOnly} onClick={() => setReadingOnly(!readingOnly)}>
          {t('story.readingOnly')}
        </button>
      </div>
      <div className="story-tabs" role="tablist">
        {(['read', 'files', 'sheets'] as const).map((x) => (
          <button key={x} type="button" role="tab" aria-selected={tab === x} onClick={() => setTab(x)}>
            {t(`story.tab.${x}`)}
          </button>
        ))}
      </div>
      {/* Keyed by the story: words typed or a file being edited for one story never carry over to another. */}
      {tab === 'read' && <ReadingView key={story.id} />}
      {tab === 'files' && <ScenarioFilesView key={story.id} />}
      {tab === 'sheets' && <SheetsView key={story.id} />}
    </section>
  )
}
