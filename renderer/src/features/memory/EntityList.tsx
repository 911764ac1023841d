import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { EntityGraph } from './EntityGraph'
import { entityMatches } from './entityGraphLayout'

/** The persona's entity graph, as a list (each entity with its relations in and out) or drawn as a graph. */
export function EntityList() {
  const { t } = useTranslation()
  const data = useApp((s) => s.memoryEntities)
  const setFilter = useApp((s) => s.setMemoryFilter)
  const setView = useApp((s) => s.setMemoryView)
  const [query, setQuery] = useState('')
  const [display, setDisplay] = useState<'list' | 'graph'>('list')

  const names = useMemo(() => new Map(data?.entities.map((e) => [e.id, e.name]) ?? []), [data])
  if (!data) return <p className="hint">{t('memory.loading')}</p>
  const shown = data.entities.filter((e) => entityMatches(e, query))
  const name = (id: number) => names.get(id) ?? `#${id}`

  return (
    <div className="memory-entities-view">
      <input
        type="search"
        aria-label={t('memory.entityQuery')}
        placeholder={t('memory.entityQuery')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <div className="segmented" role="tablist" aria-label={t('memory.graphDisplay')}>
        <button type="button" role="tab" aria-selected={display === 'list'} onClick={() => setDisplay('list')}>
          {t('memory.graphListView')}
        </button>
        <button type="button" role="tab" aria-selected={display === 'graph'} onClick={() => setDisplay('graph')}>
          {t('memory.graphView')}
        </button>
      </div>
      <p className="hint">{t('memory.entityCount', { count: data.entities.length, edges: data.edges.length })}</p>
      {display === 'graph' ? (
        <EntityGraph data={data} query={query} />
      ) : shown.length === 0 ? (
        <p className="hint">{t('memory.noEntities')}</p>
      ) : (
        <ul className="memory-entities">
          {shown.map((e) => {
            const out = data.edges.filter((g) => g.src_entity_id === e.id)
            const into = data.edges.filter((g) => g.dst_entity_id === e.id)
            return (
              <li key={e.id} data-testid="memory-entity">
                <div className="memory-entity-head">
                  <strong>{e.name}</strong>
                  <span className="memory-badge">{e.etype}</span>
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      setView('units')
                      void setFilter({ entityId: e.id })
                    }}
                  >
                    {t('memory.entityUnits', { count: e.unit_count })}
                  </button>
                </div>
                {e.aliases.length > 0 && <p className="hint">{t('memory.aliases', { names: e.aliases.join(', ') })}</p>}
                {(out.length > 0 || into.length > 0) && (
                  <ul className="memory-edges">
                    {out.map((g, i) => (
                      <li key={`o${i}`}>
                        → <em>{g.rel_type}</em> → {name(g.dst_entity_id)}
                        <span className="hint"> ({g.weight.toFixed(2)})</span>
                      </li>
                    ))}
                    {into.map((g, i) => (
                      <li key={`i${i}`}>
                        ← <em>{g.rel_type}</em> ← {name(g.src_entity_id)}
                        <span className="hint"> ({g.weight.toFixed(2)})</span>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
