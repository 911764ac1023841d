import { useEffect } from 'react'
import { ContextInspector } from '../features/context/ContextInspector'
import { Header } from './Header'
import { MemoryInspector } from '../features/memory/MemoryInspector'
import { Modals } from './Modals'
import { CommandPalette } from '../features/palette/CommandPalette'
import { ShortcutsDialog } from '../features/palette/ShortcutsDialog'
import { ONBOARDING_DISMISSED } from '../features/providers/OnboardingDialog'
import { SearchPanel } from '../features/search/SearchPanel'
import { AppSidebar } from './AppSidebar'
import { StatusBar } from '../features/statusbar/StatusBar'
import { StoryPanel } from '../features/story/StoryPanel'
import { Toasts } from '../features/toasts/Toasts'
import { ReadingLayout } from './ReadingLayout'
import { useImageDrop } from '../features/world/useImageDrop'
import { useApp, useAppStore } from '../store'
import { followLink, parseLink, wireLinks } from '../store/links'
import { useLanguage } from './useLanguage'
import { useShortcuts } from './useShortcuts'
import { useTheme } from '../ui/useTheme'

/** The app frame: header, sidebar (conversations, world), transcript and graph, side panel, status bar. */
export function App() {
  const store = useAppStore()
  const language = useApp((s) => s.settings?.language)
  const theme = useApp((s) => s.settings?.theme)
  const panel = useApp((s) => s.panel)
  useLanguage(language)
  useTheme(theme)
  useShortcuts()
  // Window-wide: a picture dropped or pasted anywhere attaches to the next prompt.
  useImageDrop()

  useEffect(() => {
    // First run with no AI provider: explain the choices (once; the settings have it afterwards).
    if (localStorage.getItem(ONBOARDING_DISMISSED)) return
    void store
      .getState()
      .invoke('list_providers', {})
      .then((providers) => {
        if (providers && !providers.some((p) => p.configured)) store.getState().openModal({ name: 'onboarding' })
      })
  }, [store])

  useEffect(() => wireLinks(store), [store])

  useEffect(() => {
    // A link in the address opens its conversation at its message; else the one open last, else the most recent one.
    void store
      .getState()
      .loadFlows()
      .then(async () => {
        const link = parseLink(window.location.hash)
        if (link && (await followLink(store, link))) return
        const { flows, openFlow } = store.getState()
        const last = localStorage.getItem('loomverse.lastFlow')
        const target = flows.find((f) => f.id === last) ?? flows[0]
        if (target) void openFlow(target.id)
      })
  }, [store])

  return (
    <div className={`app-frame${panel ? ` with-panel panel-${panel}` : ''}`}>
      <Header />
      <AppSidebar />
      <ReadingLayout />
      {panel === 'search' && <SearchPanel />}
      {panel === 'context' && <ContextInspector />}
      {panel === 'memory' && <MemoryInspector />}
      {panel === 'story' && <StoryPanel />}
      <StatusBar />
      <Modals />
      <CommandPalette />
      <ShortcutsDialog />
      <Toasts />
    </div>
  )
}
