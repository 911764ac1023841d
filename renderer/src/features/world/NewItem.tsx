import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

type NewItemType = 'document' | 'object'

/**
 * "New item…": a document (optionally with its first text) or an object, made in the
 * building the user is in. What was typed stays if the request is refused, so nothing is lost.
 */
export function NewItem() {
  const { t } = useTranslation()
  const create = useApp((s) => s.createItem)
  const [type, setType] = useState<NewItemType>('document')
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [content, setContent] = useState('')
  const [busy, setBusy] = useState(false)
  const details = useRef<HTMLDetailsElement>(null)
  const trimmed = name.trim()
  const submit = async () => {
    setBusy(true)
    try {
      const item = await create(
        type === 'document' ? { type, name: trimmed, description, content } : { type, name: trimmed, description },
      )
      if (!item) return
      setName('')
      setDescription('')
      setContent('')
      // Made: the form folds away behind its button again, the sidebar back to its list.
      if (details.current) details.current.open = false
    } finally {
      setBusy(false)
    }
  }
  return (
    <details className="new-item" ref={details}>
      <summary>{t('world.newItem.open')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (trimmed && !busy) void submit()
        }}
      >
        <label className="field">
          <span>{t('world.newItem.type')}</span>
          <select value={type} onChange={(e) => setType(e.target.value as NewItemType)}>
            <option value="document">{t('world.type.document')}</option>
            <option value="object">{t('world.type.object')}</option>
          </select>
        </label>
        <label className="field">
          <span>{t('world.newItem.name')}</span>
          <input value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('world.newItem.description')}</span>
          <textarea rows={2} value={description} maxLength={10_000} onChange={(e) => setDescription(e.target.value)} />
        </label>
        {type === 'document' && (
          <label className="field">
            <span>{t('world.newItem.text')}</span>
            <textarea rows={4} value={content} onChange={(e) => setContent(e.target.value)} />
          </label>
        )}
        <button type="submit" disabled={!trimmed || busy}>
          {t('world.newItem.create')}
        </button>
      </form>
    </details>
  )
}
