import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PurposeDefaults as Defaults } from '@shared/contract'
import { useApp } from '../../store'

type Purpose = 'chat' | 'summary'

/** NovelADV's split: one default for conversation replies, one for summaries and tags. */
export function PurposeDefaults() {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [models, setModels] = useState<string[]>([])
  // A model chosen on a provider's card (or set by its first test) shows here at once.
  const chatModel = useApp((s) => s.settings?.chat.model ?? '')
  const summaryModel = useApp((s) => s.settings?.summary.model ?? '')
  useEffect(() => {
    void invoke('list_models', {}).then((r) => r && setModels(r.models.map((m) => m.ref)))
  }, [invoke])
  return (
    <section className="purpose-defaults" aria-label={t('defaults.title')}>
      <h3>{t('defaults.title')}</h3>
      <p className="hint">{t('defaults.hint')}</p>
      <div className="purpose-grid">
        <PurposeForm key={`chat:${chatModel}`} purpose="chat" />
        <PurposeForm key={`summary:${summaryModel}`} purpose="summary" />
      </div>
      <datalist id="default-model-refs">
        {models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
    </section>
  )
}

function PurposeForm({ purpose }: { purpose: Purpose }) {
  const { t } = useTranslation()
  const current = useApp((s) => s.settings?.[purpose])
  const update = useApp((s) => s.updateSettings)
  const [model, setModel] = useState(current?.model ?? '')
  const [temperature, setTemperature] = useState(current?.temperature?.toString() ?? '')
  const [maxTokens, setMaxTokens] = useState(current?.max_tokens?.toString() ?? '')
  const save = () => {
    const value: Defaults = {
      model: model.trim() || null,
      temperature: temperature.trim() === '' ? null : Number(temperature),
      max_tokens: maxTokens.trim() === '' ? null : Number(maxTokens),
    }
    void update({ [purpose]: value })
  }
  return (
    <form
      className="purpose-form"
      aria-label={t(`defaults.${purpose}`)}
      onSubmit={(e) => {
        e.preventDefault()
        save()
      }}
    >
      <h4>{t(`defaults.${purpose}`)}</h4>
      <label className="field">
        {t('defaults.model')}
        <input
          list="default-model-refs"
          placeholder="provider:model"
          value={model}
          onChange={(e) => setModel(e.target.value)}
        />
      </label>
      <label className="field">
        {t('persona.temperature')}
        <input
          inputMode="decimal"
          placeholder="0 – 2"
          value={temperature}
          onChange={(e) => setTemperature(e.target.value)}
        />
      </label>
      <label className="field">
        {t('persona.maxTokens')}
        <input inputMode="numeric" value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} />
      </label>
      <button type="submit">{t('common.save')}</button>
    </form>
  )
}
