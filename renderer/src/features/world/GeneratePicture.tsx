import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

/**
 * "Generate a picture": the open conversation's persona's image model draws from a prompt,
 * and the picture hangs in the building the user is in. Generating takes a while: the
 * button says so and stays disabled until the picture (or the reason it failed) arrives.
 */
export function GeneratePicture() {
  const { t } = useTranslation()
  const [prompt, setPrompt] = useState('')
  const busy = useApp((s) => s.generatingPicture)
  const generate = useApp((s) => s.generatePicture)
  const text = prompt.trim()
  return (
    <details className="generate-picture">
      <summary>{t('world.generate.open')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (!text || busy) return
          void generate(text).then((item) => item && setPrompt(''))
        }}
      >
        <label className="field">
          <span>{t('world.generate.prompt')}</span>
          <textarea
            rows={3}
            value={prompt}
            maxLength={10_000}
            placeholder={t('world.generate.placeholder')}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </label>
        <button type="submit" disabled={!text || busy} aria-busy={busy}>
          {busy ? t('world.generate.working') : t('world.generate.go')}
        </button>
        <p className="hint">{t('world.generate.hint')}</p>
      </form>
    </details>
  )
}
