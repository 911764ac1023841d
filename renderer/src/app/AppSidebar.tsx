import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Building2, MessagesSquare } from 'lucide-react'
import { Tabs } from '../ui/Tabs'
import { ConversationList } from '../features/conversations/ConversationList'
import { ItemModal } from '../features/world/ItemModal'
import { BuildingSidebar } from './BuildingSidebar'

type Tab = 'conversations' | 'world'
const TABS: readonly Tab[] = ['conversations', 'world']
const STORAGE_KEY = 'loomverse.sidebarTab'
const ID_BASE = 'sidebar'

function storedTab(): Tab {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'world' ? 'world' : 'conversations'
  } catch {
    return 'conversations'
  }
}

/**
 * The left column: the conversation list and the world, as two tabs (ui/Tabs: arrows, Home
 * and End move between them). Both panels stay mounted, so the world keeps what the user had
 * open while they look at their conversations, and the choice outlives a reload.
 */
export function AppSidebar() {
  const { t } = useTranslation()
  const [tab, setTab] = useState<Tab>(storedTab)
  const choose = (next: Tab) => {
    setTab(next)
    try {
      localStorage.setItem(STORAGE_KEY, next)
    } catch {
      // Private windows may refuse storage: the choice lasts until the page closes.
    }
  }
  return (
    <aside className="app-sidebar" aria-label={t('conversations.tabs')}>
      <div className="sidebar-tabs">
        <Tabs
          idBase={ID_BASE}
          label={t('conversations.tabs')}
          value={tab}
          onChange={choose}
          tabs={[
            {
              id: 'conversations',
              label: (
                <>
                  <MessagesSquare size={15} aria-hidden />
                  {t('conversations.tab')}
                </>
              ),
            },
            {
              id: 'world',
              label: (
                <>
                  <Building2 size={15} aria-hidden />
                  {t('conversations.worldTab')}
                </>
              ),
            },
          ]}
        />
      </div>
      {TABS.map((id) => (
        <div
          key={id}
          role="tabpanel"
          id={`${ID_BASE}-panel-${id}`}
          className="sidebar-panel"
          aria-labelledby={`${ID_BASE}-tab-${id}`}
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
