import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SENTENCE_MODEL, WORDS_MODEL } from '@shared/contract'
import { useApp } from '../../store'
import { defaultEmbeddingModel } from '../../ui/MemorySearchField'

const DISMISSED = 'loomverse.meaningOffer.dismissed.'

/**
 * In an English window, offers a persona whose memory is searched by words (and the built-in
 * word model's single-word meanings) the built-in sentence model (personas made before it was the default, or set to words). One click switches
 * it and the memory is embedded again in the background; "Not now" is remembered per persona.
 */
export function MeaningSearchOffer({ personaId }: { personaId: string }) {
  const { t, i18n } = useTranslation()
  const persona = useApp((s) => s.personas.find((p) => p.id === personaId))
  const invoke = useApp((s) => s.invoke)
  // The model memory actually uses (an environment default counts), once the status is in.
  const status = useApp((s) => s.memoryStatus)
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED + personaId) === '1')
  const byWords =
    !persona?.embedding_model &&
    status !== null &&
    (status.vectors.model === null || status.vectors.model === WORDS_MODEL)
  // Offered where a new persona would start with the model (an English window).
  const wanted = defaultEmbeddingModel(i18n.resolvedLanguage) === SENTENCE_MODEL
  if (!persona || !byWords || dismissed || !wanted) return null
  return (
    <div className="hint meaning-offer" data-testid="meaning-offer">
      <p>{t('memory.meaningOffer.text', { name: persona.name })}</p>
      {/* A row of their own: wrapped after the text, they sat flush under its last line. */}
      <div className="meaning-offer-actions">
        <button
          type="button"
          // personas_changed brings the persona back with its model, and the offer goes.
          onClick={() => void invoke('update_persona', { id: persona.id, embedding_model: SENTENCE_MODEL })}
        >
          {t('memory.meaningOffer.use')}
        </button>
        <button
          type="button"
          onClick={() => {
            localStorage.setItem(DISMISSED + personaId, '1')
            setDismissed(true)
          }}
        >
          {t('memory.meaningOffer.notNow')}
        </button>
      </div>
    </div>
  )
}
