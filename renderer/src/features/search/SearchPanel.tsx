import { MessagesSquare, SearchX, TextSearch } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SearchHit } from '@shared/contract'
import { followLink, linkHash } from '../../store/links'
import { useApp, useAppStore } from '../../store'
import { EmptyState } from '../../ui/EmptyState'
import { Highlighted } from './Highlighted'
import './searchResults.css'

/**
 * Search by keywords and tags across all flows. Each result names the conversation it is from
 * and is a link to it (`#flow=…&node=…`): a click opens it there, a middle click in a new tab.
 */
export function SearchPanel() {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const store = useAppStore()
  const flowId = useApp((s) => s.flowId)
  const [keywords, setKeywords] = useState('')
  const [tags, setTags] = useState<string[]>([])
  const [tagCounts, setTagCounts] = useState<Array<{ tag: string; count: number }>>([])
  const [hits, setHits] = useState<SearchHit[] | null>(null)

  useEffect(() => {
    void invoke('list_tags', {}).then((tags) => tags && setTagCounts(tags))
  }, [invoke, flowId])

  const search = async (words = keywords, chosen = tags) => {
    const list = words.split(/[\s,、]+/).filter(Boolean)
    if (list.length === 0 && chosen.length === 0) {
      setHits(null)
      return
    }
    const found = await invoke('search_nodes', { keywords: list, tags: chosen })
    if (found) setHits(found.nodes)
  }

  /** Where a result opens: the conversation on screen when the node is in it, else the first it is in. */
  const placeOf = (hit: SearchHit) => hit.flows.find((f) => f.id === flowId) ?? hit.flows[0]

  const toggleTag = (tag: string) => {
    const next = tags.includes(tag) ? tags.filter((x) => x !== tag) : [...tags, tag]
    setTags(next)
    void search(keywords, next)
  }

  return (
    <section className="side-panel" aria-label={t('search.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void search()
        }}
      >
        <input
          type="search"
          aria-label={t('search.keywords')}
          placeholder={t('search.placeholder')}
          value={keywords}
          onChange={(e) => setKeywords(e.target.value)}
        />
        <button type="submit">{t('search.go')}</button>
      </form>
      {tagCounts.length > 0 && (
        <div className="tag-list" aria-label={t('search.tags')}>
          {tagCounts.map(({ tag, count }) => (
            <button
              key={tag}
              type="button"
              className="tag"
              aria-pressed={tags.includes(tag)}
              onClick={() => toggleTag(tag)}
            >
              #{tag} <span className="count">{count}</span>
            </button>
          ))}
        </div>
      )}
      {!hits && (
        <EmptyState icon={TextSearch} title={t('shell.search.startTitle')}>
          <p>{t('shell.search.startBody')}</p>
        </EmptyState>
      )}
      {hits?.length === 0 && (
        <EmptyState icon={SearchX} title={t('shell.search.noneTitle')}>
          <p>{t('shell.search.noneBody')}</p>
        </EmptyState>
      )}
      {hits && (
        <>
          <p className="hint">{t('search.results', { count: hits.length })}</p>
          <ul className="search-results">
            {hits.map((hit) => {
              const place = placeOf(hit)
              if (!place) return null
              const others = hit.flows.length - 1
              return (
                <li key={hit.id}>
                  <a
                    className="search-hit"
                    href={linkHash(place.id, hit.id)}
                    onClick={(e) => {
                      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return
                      e.preventDefault()
                      void followLink(store, { flowId: place.id, nodeId: hit.id })
                    }}
                  >
                    <span className="search-hit-flow">
                      <MessagesSquare size={14} aria-hidden="true" />
                      <span className="search-hit-flow-name">{place.name || t('search.unnamed')}</span>
                      {others > 0 && <span className="hint">{t('search.alsoIn', { count: others })}</span>}
                    </span>
                    <span className="search-hit-text">
                      <Highlighted text={hit.excerpt} />
                    </span>
                  </a>
                </li>
              )
            })}
          </ul>
        </>
      )}
    </section>
  )
}
