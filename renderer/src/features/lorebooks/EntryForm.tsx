import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LorePosition, SelectiveLogic, type LoreEntry } from '@shared/contract'

/** Keys are edited as one line, comma-separated, as SillyTavern shows them. */
const keyList = (text: string) =>
  text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)

const numberFields = ['order', 'depth', 'probability', 'sticky', 'cooldown', 'delay'] as const

/** One entry: its keys, its text, where it goes and when it fires. */
export function EntryForm({
  entry,
  onSave,
  onDelete,
}: {
  entry: LoreEntry
  onSave: (fields: Partial<LoreEntry>) => Promise<unknown>
  onDelete: () => Promise<unknown>
}) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState({
    ...entry,
    keysText: entry.keys.join(', '),
    secondaryText: entry.secondary_keys.join(', '),
    numbers: Object.fromEntries(numberFields.map((f) => [f, String(entry[f])])) as Record<
      (typeof numberFields)[number],
      string
    >,
  })
  const set = (fields: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...fields }))
  const badNumber = numberFields.find(
    (f) => draft.numbers[f].trim() === '' || !Number.isFinite(Number(draft.numbers[f])),
  )
  const save = () =>
    onSave({
      comment: draft.comment,
      keys: keyList(draft.keysText),
      secondary_keys: keyList(draft.secondaryText),
      selective_logic: draft.selective_logic,
      content: draft.content,
      position: draft.position,
      constant: draft.constant,
      enabled: draft.enabled,
      group: draft.group,
      ...Object.fromEntries(numberFields.map((f) => [f, Number(draft.numbers[f])])),
    })
  return (
    <form
      className="lore-entry"
      aria-label={t('lore.entry')}
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <label className="field">
        {t('lore.comment')}
        <input value={draft.comment} onChange={(e) => set({ comment: e.target.value })} />
      </label>
      <label className="field">
        {t('lore.keys')}
        <input
          value={draft.keysText}
          onChange={(e) => set({ keysText: e.target.value })}
          placeholder={t('lore.keysHint')}
        />
      </label>
      <div className="lore-row">
        <label className="field">
          {t('lore.secondaryKeys')}
          <input value={draft.secondaryText} onChange={(e) => set({ secondaryText: e.target.value })} />
        </label>
        <label className="field">
          {t('lore.logic')}
          <select
            value={draft.selective_logic}
            onChange={(e) => set({ selective_logic: e.target.value as LoreEntry['selective_logic'] })}
          >
            {SelectiveLogic.options.map((l) => (
              <option key={l} value={l}>
                {t(`lore.logicOption.${l}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        {t('lore.content')}
        <textarea rows={5} value={draft.content} onChange={(e) => set({ content: e.target.value })} />
      </label>
      <div className="lore-row">
        <label className="field">
          {t('lore.position')}
          <select value={draft.position} onChange={(e) => set({ position: e.target.value as LoreEntry['position'] })}>
            {LorePosition.options.map((p) => (
              <option key={p} value={p}>
                {t(`lore.positionOption.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t('lore.group')}
          <input value={draft.group} onChange={(e) => set({ group: e.target.value })} />
        </label>
      </div>
      <div className="lore-numbers">
        {numberFields.map((f) => (
          <label key={f} className="field">
            {t(`lore.number.${f}`)}
            <input
              inputMode="numeric"
              value={draft.numbers[f]}
              aria-invalid={badNumber === f || undefined}
              onChange={(e) => set({ numbers: { ...draft.numbers, [f]: e.target.value } })}
            />
          </label>
        ))}
      </div>
      <div className="lore-row">
        <label className="inline">
          <input type="checkbox" checked={draft.constant} onChange={(e) => set({ constant: e.target.checked })} />
          {t('lore.constant')}
        </label>
        <label className="inline">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          {t('lore.enabled')}
        </label>
      </div>
      <div className="dialog-actions">
        <button type="button" className="danger" onClick={() => void onDelete()}>
          {t('lore.deleteEntry')}
        </button>
        <button type="submit" className="primary" disabled={badNumber !== undefined}>
          {t('common.save')}
        </button>
      </div>
    </form>
  )
}
