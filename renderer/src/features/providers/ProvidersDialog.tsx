import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ProviderInfo } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'
import { ModelChoice } from './ModelChoice'
import { PurposeDefaults } from './PurposeDefaults'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

/** Product names stay as they are; the OpenAI-compatible card says what it is in the window's language. */
const names: Record<Exclude<ProviderInfo['id'], 'openai'>, string> = {
  openrouter: 'OpenRouter',
  gemini: 'Gemini',
  ollama: 'Ollama',
}

/** Set up the LLM providers: address, key (write-only, masked), test, remove. */
export function ProvidersDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [providers, setProviders] = useState<ProviderInfo[]>([])
  const [ollama, setOllama] = useState<{ found: boolean; models: string[] } | null>(null)
  const [loaded, setLoaded] = useState(false)

  useEffect(() => {
    void invoke('list_providers', {}).then((p) => {
      if (p) setProviders(p)
      setLoaded(true)
    })
    void invoke('detect_ollama', {}).then((d) => d && setOllama(d))
  }, [invoke])

  return (
    <Dialog title={t('providers.title')} onClose={onClose} ready={loaded}>
      <p className="hint">{t('providers.intro')}</p>
      {ollama && (
        <p className="hint" data-testid="ollama-detection">
          {ollama.found ? t('providers.ollamaFound', { count: ollama.models.length }) : t('providers.ollamaMissing')}
        </p>
      )}
      <div className="provider-list">
        {providers.map((p) => (
          <ProviderCard key={p.id} provider={p} onChanged={setProviders} />
        ))}
      </div>
      <PurposeDefaults />
      <DialogCloseRow onClose={onClose} />
    </Dialog>
  )
}

function ProviderCard({ provider, onChanged }: { provider: ProviderInfo; onChanged: (p: ProviderInfo[]) => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [baseUrl, setBaseUrl] = useState(provider.base_url)
  const [key, setKey] = useState('')
  const [test, setTest] = useState<{ ok: boolean; text: string; models: string[] } | null>(null)
  const [busy, setBusy] = useState(false)
  const label = provider.id === 'openai' ? t('providers.openaiName') : names[provider.id]
  const address = baseUrl.trim()
  // An address without its scheme is the commonest slip: say so in the field, before any request.
  const badAddress = address !== '' && !/^https?:\/\//.test(address)
  const typed = address !== provider.base_url || key.trim() !== ''

  const save = async () => {
    setBusy(true)
    const next = await invoke('set_provider', {
      id: provider.id,
      base_url: address || null,
      ...(key.trim() ? { api_key: key.trim() } : {}),
    })
    setBusy(false)
    if (!next) return
    setKey('') // the key is gone from the page once saved
    onChanged(next)
    await runTest(false)
  }
  /** Tests what is in the fields now, saved or not. */
  const runTest = async (useTyped = typed) => {
    setBusy(true)
    const r = await invoke('test_provider', {
      id: provider.id,
      ...(useTyped ? { base_url: address || provider.base_url, ...(key.trim() ? { api_key: key.trim() } : {}) } : {}),
    })
    setBusy(false)
    if (!r) return
    setTest(
      r.ok
        ? {
            ok: true,
            text: t('providers.testOk', { count: r.models.length, models: r.models.slice(0, 5).join(', ') }),
            models: r.models,
          }
        : { ok: false, text: r.message ?? '', models: [] },
    )
  }
  const remove = async () => {
    const next = await invoke('remove_provider', { id: provider.id })
    if (next) {
      onChanged(next)
      setTest(null)
    }
  }

  return (
    <section className="provider-card" aria-label={label}>
      <header>
        <h3>{label}</h3>
        <span
          className={`badge ${test?.ok === false ? 'badge-bad' : provider.configured ? 'badge-ok' : ''}`}
          data-testid="provider-state"
        >
          {test?.ok === false
            ? t('providers.failed')
            : provider.configured
              ? provider.source === 'env'
                ? t('providers.fromEnv')
                : t('providers.configured')
              : t('providers.notConfigured')}
        </span>
      </header>
      <label className="field">
        {t('providers.baseUrl')}
        <input
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          spellCheck={false}
          aria-invalid={badAddress}
        />
        {badAddress && (
          <span role="alert" className="field-error">
            {t('providers.needsScheme', { example: `http://${address}` })}
          </span>
        )}
      </label>
      {provider.needs_key && (
        <label className="field">
          {t('providers.apiKey')}
          <input
            type="password"
            autoComplete="off"
            value={key}
            placeholder={
              provider.key.set ? t('providers.keySet', { last4: provider.key.last4 }) : t('providers.keyMissing')
            }
            onChange={(e) => setKey(e.target.value)}
          />
          {!provider.keys_persist && <span className="hint">{t('providers.keyNotSaved')}</span>}
        </label>
      )}
      {test && (
        <p role={test.ok ? 'status' : 'alert'} className={test.ok ? 'test-ok' : 'field-error'}>
          {test.text}
        </p>
      )}
      {test?.ok && test.models.length > 0 && provider.configured && (
        <ModelChoice provider={provider.id} models={test.models} />
      )}
      <div className="dialog-actions">
        {provider.source === 'settings' && (
          <button type="button" className="danger" onClick={() => void remove()}>
            {t('providers.remove')}
          </button>
        )}
        <button
          type="button"
          disabled={busy || badAddress || (!provider.configured && !typed)}
          onClick={() => void runTest()}
        >
          {t('providers.test')}
        </button>
        <button type="button" className="primary" disabled={busy || badAddress} onClick={() => void save()}>
          {t('common.save')}
        </button>
      </div>
    </section>
  )
}
