import { Globe, Pin } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MemoryUnitKind, MemoryUnitState, type MemoryUnit } from '@shared/contract'
import { useApp } from '../../store'
import { MEMORY_PAGE } from '../../store/memorySlice'
import type { MemoryStateFilter } from '../../store/memoryState'
import { dayToEpoch, epochToDay, formatTime, nextDay, previousDay, shortText } from './memoryText'

/** Units filtered by kind, state, entity, time and text, newest first, a page at a time. */
export function UnitList() {
  const { t } = useTranslation()
  const filter = useApp((s) => s.memoryFilter)
  const setFilter = useApp((s) => s.setMemoryFilter)
  const entities = useApp((s) => s.memoryEntities?.entities)
  const list = useApp((s) => s.memoryUnits)
  const [query, setQuery] = useState(filter.query)

  const filtered =
    filter.kind !== null ||
    filter.state !== 'active' ||
    filter.entityId !== null ||
    filter.from !== null ||
    filter.to !== null ||
    filter.query !== ''
  const last = list ? Math.min(filter.offset + MEMORY_PAGE, list.total) : 0

  return (
    <div className="memory-units-view">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void setFilter({ query })
        }}
      >
        <input
          type="search"
          aria-label={t('memory.query')}
          placeholder={t('memory.queryPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit">{t('memory.go')}</button>
      </form>
      <div className="memory-filters">
        <label className="field">
          <span>{t('memory.kindLabel')}</span>
          <select
            aria-label={t('memory.kindLabel')}
            value={filter.kind ?? ''}
            onChange={(e) => void setFilter({ kind: (e.target.value || null) as MemoryUnitKind | null })}
          >
            <option value="">{t('memory.anyKind')}</option>
            {MemoryUnitKind.options.map((k) => (
              <option key={k} value={k}>
                {t(`memory.kind.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('memory.stateLabel')}</span>
          <select
            aria-label={t('memory.stateLabel')}
            value={filter.state}
            onChange={(e) => void setFilter({ state: e.target.value as MemoryStateFilter })}
          >
            <option value="active">{t('memory.activeStates')}</option>
            <option value="all">{t('memory.allStates')}</option>
            {MemoryUnitState.options.map((s) => (
              <option key={s} value={s}>
                {t(`memory.state.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field memory-filter-wide">
          <span>{t('memory.entityLabel')}</span>
          <select
            aria-label={t('memory.entityLabel')}
            value={filter.entityId ?? ''}
            onChange={(e) => void setFilter({ entityId: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">{t('memory.anyEntity')}</option>
            {entities?.map((en) => (
              <option key={en.id} value={en.id}>
                {en.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('memory.from')}</span>
          <input
            aria-label={t('memory.from')}
            type="date"
            value={epochToDay(filter.from)}
            onChange={(e) => void setFilter({ from: dayToEpoch(e.target.value) })}
          />
        </label>
        <label className="field">
          <span>{t('memory.to')}</span>
          <input
            aria-label={t('memory.to')}
            type="date"
            value={filter.to === null ? '' : epochToDay(previousDay(filter.to))}
            onChange={(e) => {
              const day = dayToEpoch(e.target.value)
              void setFilter({ to: day === null ? null : nextDay(day) })
            }}
          />
        </label>
      </div>
      {filtered && (
        <button
          type="button"
          className="link"
          onClick={() => {
            setQuery('')
            void setFilter({ kind: null, state: 'active', entityId: null, from: null, to: null, query: '' })
          }}
        >
          {t('memory.clearFilters')}
        </button>
      )}
      {!list ? (
        <p className="hint">{t('memory.loading')}</p>
      ) : list.units.length === 0 ? (
        <p className="hint">{t('memory.noUnits')}</p>
      ) : (
        <>
          <p className="hint" data-testid="memory-count">
            {t('memory.range', { from: filter.offset + 1, to: last, total: list.total })}
          </p>
          <ul className="memory-units">
            {list.units.map((u) => (
              <li key={u.id}>
                <UnitRow unit={u} />
              </li>
            ))}
          </ul>
          {list.total > MEMORY_PAGE && (
            <div className="memory-pager">
              <button
                type="button"
                disabled={filter.offset === 0}
                onClick={() => void setFilter({ offset: Math.max(0, filter.offset - MEMORY_PAGE) })}
              >
                {t('memory.previous')}
              </button>
              <button
                type="button"
                disabled={last >= list.total}
                onClick={() => void setFilter({ offset: filter.offset + MEMORY_PAGE })}
              >
                {t('memory.next')}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  )
}

function UnitRow({ unit }: { unit: MemoryUnit }) {
  const { i18n } = useTranslation()
  const open = useApp((s) => s.openMemoryUnit)
  return (
    <button
      type="button"
      className="memory-unit-row"
      data-testid="memory-unit"
      data-unit-id={unit.id}
      onClick={() => void open(unit.id)}
    >
      <UnitBadges unit={unit} />
      <span className="memory-unit-time">{formatTime(unit.occurred_at ?? unit.created_at, i18n.language)}</span>
      <span className="memory-unit-text">{shortText(unit.text)}</span>
    </button>
  )
}

/** Kind, state, sensitivity, pinned and global markers. */
export function UnitBadges({ unit }: { unit: MemoryUnit }) {
  const { t } = useTranslation()
  return (
    <span className="memory-badges">
      <span className={`memory-badge kind-${unit.kind}`}>{t(`memory.kind.${unit.kind}`)}</span>
      <span className={`memory-badge state-${unit.state}`}>{t(`memory.state.${unit.state}`)}</span>
      <span className={`memory-badge sensitivity-${unit.sensitivity}`}>
        {t(`memory.sensitivity.${unit.sensitivity}`)}
      </span>
      {/* Drawn icons, not emoji: a system without an emoji font showed an empty box. */}
      {unit.pin && (
        <span className="memory-badge marker" title={t('memory.pinned')} aria-label={t('memory.pinned')}>
          <Pin size={11} aria-hidden />
        </span>
      )}
      {unit.global && (
        <span className="memory-badge marker" title={t('memory.global')} aria-label={t('memory.global')}>
          <Globe size={11} aria-hidden />
        </span>
      )}
    </span>
  )
}
