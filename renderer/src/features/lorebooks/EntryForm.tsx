import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { characterFilterOf, LorePosition, SelectiveLogic, type LoreEntry } from '@shared/contract'
import { RoleField } from './RoleField'

/** Keys (and character names) are edited as one line, comma-separated, as SillyTavern shows them. */
const keyList = (text: string) =>
  text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)

/** Whole numbers of the entry, edited as text so a half-typed one can be told apart. */
const numberFields = [
  'order',
  'depth',
  'probability',
  'group_weight',
  'sticky',
  'cooldown',
  'delay',
  'scan_depth',
] as const
type NumberField = (typeof numberFields)[number]
/** Blank means "the book's". */
const optionalNumbers: ReadonlySet<NumberField> = new Set(['scan_depth'])
const switches = [
  'use_probability',
  'group_override',
  'use_group_scoring',
  'exclude_recursion',
  'prevent_recursion',
  'delay_until_recursion',
  'ignore_budget',
] as const

/** A switch that may follow the book: yes, no, or the book's default (null). */
function Tristate({
  label,
  value,
  onChange,
}: {
  label: string
  value: boolean | null
  onChange: (v: boolean | null) => void
}) {
  const { t } = useTranslation()
  return (
    <label className="field">
      {label}
      <select
        aria-label={label}
        value={value === null ? 'book' : value ? 'yes' : 'no'}
        onChange={(e) => onChange(e.target.value === 'book' ? null : e.target.value === 'yes')}
      >
        <option value="book">{t('lore.fromBook')}</option>
        <option value="yes">{t('lore.yes')}</option>
        <option value="no">{t('lore.no')}</option>
      </select>
    </label>
  )
}

/**
 * One entry: its keys, its text and where it goes up front; how it is matched and when it fires
 * (SillyTavern's other options) behind "Advanced".
 */
export function EntryForm({
  entry,
  skippedKeys = [],
  onSave,
  onDelete,
}: {
  entry: LoreEntry
  /** Its regular expression keys left out of matching for taking too long. */
  skippedKeys?: readonly string[]
  onSave: (fields: Partial<LoreEntry>) => Promise<unknown>
  onDelete: () => Promise<unknown>
}) {
  const { t } = useTranslation()
  const filter = characterFilterOf(entry.extra)
  const [draft, setDraft] = useState({
    ...entry,
    keysText: entry.keys.join(', '),
    secondaryText: entry.secondary_keys.join(', '),
    numbers: Object.fromEntries(numberFields.map((f) => [f, entry[f] === null ? '' : String(entry[f])])) as Record<
      NumberField,
      string
    >,
    charactersText: filter?.names.join(', ') ?? '',
    excludeCharacters: filter?.isExclude ?? false,
    outletName: typeof entry.extra.outletName === 'string' ? entry.extra.outletName : '',
  })
  const set = (fields: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...fields }))
  const badNumber = numberFields.find((f) => {
    const text = draft.numbers[f].trim()
    if (text === '') return !optionalNumbers.has(f)
    return !Number.isFinite(Number(text))
  })
  const save = () => {
    const names = keyList(draft.charactersText)
    const { characterFilter: _filter, outletName: _outlet, ...kept } = entry.extra
    // SillyTavern's own fields stay in extra, written back as it reads them.
    const extra = {
      ...kept,
      ...(names.length > 0 || draft.excludeCharacters || (filter?.tags.length ?? 0) > 0
        ? { characterFilter: { names, tags: filter?.tags ?? [], isExclude: draft.excludeCharacters } }
        : {}),
      ...(draft.outletName.trim() ? { outletName: draft.outletName.trim() } : {}),
    }
    return onSave({
      comment: draft.comment,
      keys: keyList(draft.keysText),
      secondary_keys: keyList(draft.secondaryText),
      selective_logic: draft.selective_logic,
      content: draft.content,
      position: draft.position,
      role: draft.role,
      constant: draft.constant,
      enabled: draft.enabled,
      group: draft.group,
      case_sensitive: draft.case_sensitive,
      match_whole_words: draft.match_whole_words,
      ...Object.fromEntries(switches.map((s) => [s, draft[s]])),
      ...Object.fromEntries(
        numberFields.map((f) => [f, draft.numbers[f].trim() === '' ? null : Number(draft.numbers[f])]),
      ),
      extra,
    })
  }
  const number = (f: NumberField) => (
    <label key={f} className="field">
      {t(`lore.number.${f}`)}
      <input
        inputMode="numeric"
        value={draft.numbers[f]}
        placeholder={optionalNumbers.has(f) ? t('lore.fromBook') : undefined}
        aria-invalid={badNumber === f || undefined}
        onChange={(e) => set({ numbers: { ...draft.numbers, [f]: e.target.value } })}
      />
    </label>
  )
  const check = (s: (typeof switches)[number]) => (
    <label key={s} className="inline">
      <input type="checkbox" checked={draft[s]} onChange={(e) => set({ [s]: e.target.checked })} />
      {t(`lore.switch.${s}`)}
    </label>
  )
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
      {skippedKeys.map((key) => (
        <p key={key} className="hint skipped-key" role="status">
          {t('lore.keySkipped', { key })}
        </p>
      ))}
      <label className="field">
        {t('lore.content')}
        <textarea rows={5} value={draft.content} onChange={(e) => set({ content: e.target.value })} />
      </label>
      <div className="lore-row">
        <label className="field">
          {t('lore.position')}
          <select
            aria-label={t('lore.position')}
            value={draft.position}
            onChange={(e) => set({ position: e.target.value as LoreEntry['position'] })}
          >
            {LorePosition.options.map((p) => (
              <option key={p} value={p}>
                {t(`lore.positionOption.${p}`, { macro: '{{outlet::…}}' })}
              </option>
            ))}
          </select>
        </label>
        {draft.position === 'at_depth' && (
          <>
            {number('depth')}
            <RoleField value={draft.role} onChange={(role) => set({ role })} />
          </>
        )}
        {draft.position === 'outlet' && (
          <label className="field">
            {t('lore.outletName')}
            <input value={draft.outletName} onChange={(e) => set({ outletName: e.target.value })} />
          </label>
        )}
        {number('order')}
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
      <details className="lore-advanced">
        <summary>{t('lore.advanced')}</summary>
        <fieldset className="lore-group">
          <legend>{t('lore.matching')}</legend>
          <div className="lore-row">
            <label className="field">
              {t('lore.secondaryKeys')}
              <input value={draft.secondaryText} onChange={(e) => set({ secondaryText: e.target.value })} />
            </label>
            <label className="field">
              {t('lore.logic')}
              <select
                aria-label={t('lore.logic')}
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
          <div className="lore-row">
            <Tristate
              label={t('lore.caseSensitive')}
              value={draft.case_sensitive}
              onChange={(case_sensitive) => set({ case_sensitive })}
            />
            <Tristate
              label={t('lore.wholeWords')}
              value={draft.match_whole_words}
              onChange={(match_whole_words) => set({ match_whole_words })}
            />
            {number('scan_depth')}
          </div>
        </fieldset>
        <fieldset className="lore-group">
          <legend>{t('lore.firing')}</legend>
          <div className="lore-numbers">
            {number('probability')}
            {number('sticky')}
            {number('cooldown')}
            {number('delay')}
          </div>
          <div className="lore-row">
            {check('use_probability')}
            {check('ignore_budget')}
          </div>
          <div className="lore-row">
            {check('exclude_recursion')}
            {check('prevent_recursion')}
            {check('delay_until_recursion')}
          </div>
        </fieldset>
        <fieldset className="lore-group">
          <legend>{t('lore.groupTitle')}</legend>
          <div className="lore-row">
            <label className="field">
              {t('lore.group')}
              <input value={draft.group} onChange={(e) => set({ group: e.target.value })} />
            </label>
            {number('group_weight')}
          </div>
          <div className="lore-row">
            {check('group_override')}
            {check('use_group_scoring')}
          </div>
        </fieldset>
        <fieldset className="lore-group">
          <legend>{t('lore.characters')}</legend>
          <div className="lore-row">
            <label className="field">
              {t('lore.characterNames')}
              <input
                value={draft.charactersText}
                placeholder={t('lore.characterNamesHint')}
                onChange={(e) => set({ charactersText: e.target.value })}
              />
            </label>
            <label className="inline">
              <input
                type="checkbox"
                checked={draft.excludeCharacters}
                onChange={(e) => set({ excludeCharacters: e.target.checked })}
              />
              {t('lore.excludeCharacters')}
            </label>
          </div>
        </fieldset>
      </details>
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
