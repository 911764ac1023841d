import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SENTENCE_MODEL, WORDS_MODEL } from '@shared/contract'

type Way = 'words' | 'sentence' | 'provider'

function wayOf(model: string | null): Way {
  // The built-in word model is what "words" means when no model is chosen.
  if (!model?.trim() || model === WORDS_MODEL) return 'words'
  return model === SENTENCE_MODEL ? 'sentence' : 'provider'
}

/**
 * The embedding model a new persona starts with: the built-in English sentence model in an
 * English window (on LoCoMo it finds 0.80 of the evidence a question needs against 0.75 by
 * words alone, and needs no provider), none in any other (the model reads English only): words,
 * with the built-in word model's English word meanings.
 */
export function defaultEmbeddingModel(language: string | undefined): string | null {
  return language?.startsWith('en') ? SENTENCE_MODEL : null
}

/**
 * How a persona's memory is searched, as a choice of three rather than a model name to know:
 * words and spelling (with English word meanings: the built-in word model, what no choice
 * gets), the built-in English sentence model, or a provider's embedding model
 * (named in a field of its own). `saved` is the persona's stored choice, to say when a change
 * means its memory is read again.
 */
export function MemorySearchField({
  value,
  saved,
  onChange,
}: {
  value: string | null
  saved: string | null | undefined
  onChange: (model: string | null) => void
}) {
  const { t } = useTranslation()
  // Kept apart from the value: choosing "a provider's model" leaves the name empty until typed.
  const [way, setWay] = useState<Way>(wayOf(value))
  const [providerModel, setProviderModel] = useState(way === 'provider' ? (value ?? '') : '')
  const choose = (next: Way) => {
    setWay(next)
    onChange(next === 'words' ? null : next === 'sentence' ? SENTENCE_MODEL : providerModel.trim() || null)
  }
  const changed = saved !== undefined && (saved ?? null) !== (value?.trim() || null)
  return (
    <div className="memory-search">
      <label className="field">
        {t('persona.memorySearch.label')}
        <select value={way} onChange={(e) => choose(e.target.value as Way)}>
          <option value="words">{t('persona.memorySearch.words')}</option>
          <option value="sentence">{t('persona.memorySearch.sentence')}</option>
          <option value="provider">{t('persona.memorySearch.provider')}</option>
        </select>
      </label>
      {way === 'provider' && (
        <label className="field">
          {t('persona.memorySearch.providerModel')}
          <input
            list="model-refs"
            placeholder="provider:model"
            value={providerModel}
            onChange={(e) => {
              setProviderModel(e.target.value)
              onChange(e.target.value.trim() || null)
            }}
          />
        </label>
      )}
      <p className="hint" data-testid="memory-search-hint">
        {t(`persona.memorySearch.hint.${way}`)}
        {changed && ` ${t('persona.memorySearch.changed')}`}
      </p>
    </div>
  )
}
