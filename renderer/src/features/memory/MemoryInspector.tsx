import { useTranslation } from 'react-i18next'
import { SENTENCE_MODEL, WORDS_MODEL } from '@shared/contract'
import { useApp } from '../../store'
import { memoryPersona } from '../../store/memorySlice'
import { EntityList } from './EntityList'
import { JobList } from './JobList'
import { MeaningSearchOffer } from './MeaningSearchOffer'
import { MemorySpend } from './MemorySpend'
import { UnitDetail } from './UnitDetail'
import { UnitList } from './UnitList'
import { WhyRemembered } from './WhyRemembered'
import { PersonaOptions } from '../../ui/PersonaOptions'

/** The persona's memory: units, versions, evidence, entities, why something was remembered, and its jobs. */
export function MemoryInspector() {
  const { t } = useTranslation()
  const personaId = useApp(memoryPersona)
  const view = useApp((s) => s.memoryView)
  const setView = useApp((s) => s.setMemoryView)
  const detailId = useApp((s) => s.memoryDetail?.unit.id ?? null)
  const whyNodeId = useApp((s) => s.memoryWhyNodeId)
  return (
    <section className="side-panel memory-inspector" aria-label={t('memory.title')}>
      <h2>{t('memory.title')}</h2>
      <PersonaChoice />
      {!personaId ? (
        <p className="hint">{t('memory.noPersona')}</p>
      ) : (
        <>
          <MemoryStatusLine />
          <MeaningSearchOffer key={personaId} personaId={personaId} />
          <MemorySpend />
          <div className="segmented" role="tablist" aria-label={t('memory.views')}>
            <button type="button" role="tab" aria-selected={view === 'units'} onClick={() => setView('units')}>
              {t('memory.units')}
            </button>
            <button type="button" role="tab" aria-selected={view === 'entities'} onClick={() => setView('entities')}>
              {t('memory.entities')}
            </button>
            <button type="button" role="tab" aria-selected={view === 'jobs'} onClick={() => setView('jobs')}>
              {t('memory.jobList.tab')}
            </button>
            {whyNodeId && (
              <button type="button" role="tab" aria-selected={view === 'why'} onClick={() => setView('why')}>
                {t('memory.why')}
              </button>
            )}
          </div>
          {view === 'units' && (detailId !== null ? <UnitDetail key={detailId} /> : <UnitList key={personaId} />)}
          {view === 'entities' && <EntityList />}
          {view === 'why' && <WhyRemembered />}
          {view === 'jobs' && <JobList />}
        </>
      )}
    </section>
  )
}

/** Follows the open conversation's persona; another one can be looked at from here. */
function PersonaChoice() {
  const { t } = useTranslation()
  const personaId = useApp(memoryPersona)
  const setPersona = useApp((s) => s.setMemoryPersona)
  return (
    <label className="field memory-persona">
      <span>{t('memory.persona')}</span>
      <select
        aria-label={t('memory.persona')}
        value={personaId ?? ''}
        onChange={(e) => setPersona(e.target.value || null)}
      >
        <option value="">{t('memory.choosePersona')}</option>
        <PersonaOptions />
      </select>
    </label>
  )
}

function MemoryStatusLine() {
  const { t } = useTranslation()
  // The built-in models by what they are, not by their ids ("local:words-en"); a provider's by its id.
  const modelName = (model: string) =>
    model === SENTENCE_MODEL
      ? t('memory.builtInModel.sentence')
      : model === WORDS_MODEL
        ? t('memory.builtInModel.words')
        : model
  const status = useApp((s) => s.memoryStatus)
  const showJobs = useApp((s) => s.showMemoryJobs)
  if (!status) return null
  return (
    <p className="hint memory-status" data-testid="memory-status">
      {t('memory.status', { count: status.units })}
      {' · '}
      {t('memory.jobs', status.jobs)}
      {status.vectors.model && (
        <>
          {' · '}
          <span data-testid="memory-vectors">
            {status.vectors.waiting > 0
              ? t('memory.vectorsWaiting', { model: modelName(status.vectors.model), count: status.vectors.waiting })
              : t('memory.vectorsReady', { model: modelName(status.vectors.model) })}
          </span>
        </>
      )}
      {status.jobs.failed > 0 && (
        <>
          {' · '}
          <button
            type="button"
            className="link memory-failed"
            title={t('memory.jobList.showFailed')}
            onClick={() => void showJobs('failed')}
          >
            {t('memory.jobsFailed', { count: status.jobs.failed })}
          </button>
        </>
      )}
    </p>
  )
}
