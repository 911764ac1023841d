import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'

export const ONBOARDING_DISMISSED = 'loomverse.onboardingDismissed'

/** First run with no provider: what the choices are. The graph, search and world work meanwhile. */
export function OnboardingDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const openModal = useApp((s) => s.openModal)
  const [ollama, setOllama] = useState<{ found: boolean; models: string[] } | null>(null)

  useEffect(() => {
    void invoke('detect_ollama', {}).then((d) => d && setOllama(d))
  }, [invoke])

  const later = () => {
    localStorage.setItem(ONBOARDING_DISMISSED, '1')
    onClose()
  }
  return (
    <Dialog title={t('onboarding.title')} onClose={later}>
      <p>{t('onboarding.intro')}</p>
      <ul className="onboarding-choices">
        <li>
          <strong>Ollama</strong> —{' '}
          {ollama?.found ? t('onboarding.ollamaFound', { count: ollama.models.length }) : t('onboarding.ollamaMissing')}
        </li>
        <li>
          <strong>{t('providers.openaiName')}</strong> — {t('onboarding.openai')}
        </li>
        <li>
          <strong>Gemini</strong> — {t('onboarding.gemini')}
        </li>
      </ul>
      <p className="hint">{t('onboarding.meanwhile')}</p>
      <div className="dialog-actions">
        <button type="button" onClick={later}>
          {t('onboarding.later')}
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => {
            localStorage.setItem(ONBOARDING_DISMISSED, '1')
            openModal({ name: 'providers' })
          }}
        >
          {t('onboarding.setUp')}
        </button>
      </div>
    </Dialog>
  )
}
