import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ProviderInfo } from '@shared/contract'
import { firstChatModel } from '@shared/modelNames'
import { useApp } from '../../store'
import { Combobox, type ComboOption } from '../../ui/Combobox'
import { Field } from '../../ui/Field'

type Purpose = 'chat' | 'summary'

/**
 * After a provider answers, its models for the defaults: a searchable list (type to filter, or
 * type a model it did not list) for replies and for summaries. Which one is in use is shown, so
 * nothing goes out under a model nobody chose.
 */
export function ModelChoice({ provider, models }: { provider: ProviderInfo['id']; models: string[] }) {
  const { t } = useTranslation()
  const settings = useApp((s) => s.settings)
  const update = useApp((s) => s.updateSettings)
  // One group, named by the provider: the same picker as the persona form's, which lists every provider's.
  const options = useMemo(() => models.map((m) => ({ value: m, group: provider })), [models, provider])
  return (
    <div className="model-choice" role="group" aria-label={t('providers.modelsFor', { provider })}>
      {(['chat', 'summary'] as const).map((purpose) => (
        <PurposeModel
          key={purpose}
          purpose={purpose}
          provider={provider}
          options={options}
          first={firstChatModel(models) ?? ''}
          current={settings?.[purpose].model ?? null}
          onPick={(model) => {
            const now = settings?.[purpose]
            void update({
              [purpose]: { model, temperature: now?.temperature ?? null, max_tokens: now?.max_tokens ?? null },
            })
          }}
        />
      ))}
    </div>
  )
}

function PurposeModel(props: {
  purpose: Purpose
  provider: string
  options: ComboOption[]
  first: string
  current: string | null
  onPick: (model: string) => void
}) {
  const { t } = useTranslation()
  const mine = props.current?.startsWith(`${props.provider}:`) ? props.current.slice(props.provider.length + 1) : null
  const [model, setModel] = useState(mine ?? props.first)
  const chosen = `${props.provider}:${model.trim()}`
  return (
    <div className="model-choice-row">
      <Field className="field" label={t(`providers.modelFor.${props.purpose}`)}>
        <Combobox value={model} onChange={setModel} options={props.options} emptyText={t('shell.noModelMatch')} />
      </Field>
      <button type="button" disabled={!model.trim() || props.current === chosen} onClick={() => props.onPick(chosen)}>
        {t('providers.use')}
      </button>
      <span className="hint" data-testid={`in-use-${props.purpose}`}>
        {props.current ? t('providers.inUse', { model: props.current }) : t('providers.noneChosen')}
      </span>
    </div>
  )
}
