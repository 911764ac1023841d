import { SearchX, TextSearch } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SearchHit } from '@shared/contract'
import { useApp, useAppStore } from '../../store'
import { EmptyState } from '../../ui/EmptyState'
import { Highlighted } from './Highlighted'

/** Search by keywords and tags across all flows; a result jumps to its node. */
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

  const open = async (hit: SearchHit) => {
    const s = store.getState()
    const target = s.flowId && hit.flow_ids.includes(s.flowId) ? s.flowId : hit.flow_ids[0]
    if (!target) return
    if (target !== s.flowId) await s.openFlow(target)
    store.getState().focusNode(hit.id)
  }

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
            {hits.map((hit) => (
              <li key={hit.id}>
                <button type="button" onClick={() => void open(hit)}>
                  <Highlighted text={hit.excerpt} />
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
