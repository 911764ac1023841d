import { useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Building2, MessagesSquare } from 'lucide-react'
import { ConversationList } from '../conversations/ConversationList'
import { ItemModal } from '../world/ItemModal'
import { BuildingSidebar } from './BuildingSidebar'

type Tab = 'conversations' | 'world'
const TABS: readonly Tab[] = ['conversations', 'world']
const STORAGE_KEY = 'loomverse.sidebarTab'

function storedTab(): Tab {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'world' ? 'world' : 'conversations'
  } catch {
    return 'conversations'
  }
}

/**
 * The left column: the conversation list and the world, as two tabs (the ARIA tabs pattern:
 * Left/Right, Home/End move between them). Both stay mounted, so the world keeps what the
 * user had open while they look at their conversations.
 */
export function AppSidebar() {
  const { t } = useTranslation()
  const [tab, setTab] = useState<Tab>(storedTab)
  const buttons = useRef(new Map<Tab, HTMLButtonElement>())

  const choose = (next: Tab, focus = false) => {
    setTab(next)
    try {
      localStorage.setItem(STORAGE_KEY, next)
    } catch {
      // Private windows may refuse storage: the choice lasts until the page closes.
    }
    if (focus) buttons.current.get(next)?.focus()
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const at = TABS.indexOf(tab)
    const next =
      e.key === 'ArrowRight'
        ? TABS[(at + 1) % TABS.length]
        : e.key === 'ArrowLeft'
          ? TABS[(at + TABS.length - 1) % TABS.length]
          : e.key === 'Home'
            ? TABS[0]
            : e.key === 'End'
              ? TABS.at(-1)
              : undefined
    if (!next) return
    e.preventDefault()
    choose(next, true)
  }
  const label = { conversations: t('conversations.tab'), world: t('conversations.worldTab') }
  const icon = { conversations: <MessagesSquare size={15} aria-hidden />, world: <Building2 size={15} aria-hidden /> }
  return (
    <aside className="app-sidebar" aria-label={t('conversations.tabs')}>
      <div className="sidebar-tabs" role="tablist" aria-label={t('conversations.tabs')} onKeyDown={onKeyDown}>
        {TABS.map((id) => (
          <button
            key={id}
            ref={(el) => {
              if (el) buttons.current.set(id, el)
            }}
            type="button"
            role="tab"
            id={`sidebar-tab-${id}`}
            className="sidebar-tab"
            aria-selected={tab === id}
            aria-controls={`sidebar-panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => choose(id)}
          >
            {icon[id]}
            {label[id]}
          </button>
        ))}
      </div>
      {TABS.map((id) => (
        <div
          key={id}
          role="tabpanel"
          id={`sidebar-panel-${id}`}
          className="sidebar-panel"
          aria-labelledby={`sidebar-tab-${id}`}
          hidden={tab !== id}
        >
          {id === 'conversations' ? <ConversationList /> : <BuildingSidebar />}
        </div>
      ))}
      {/* Outside the tabs: an item opened from a reply shows whichever tab is chosen. */}
      <ItemModal />
    </aside>
  )
}
