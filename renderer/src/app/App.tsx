import { BuildingSidebar } from '../features/sidebar/BuildingSidebar'
import { GraphCanvas } from '../features/graph/GraphCanvas'
import { Header } from '../features/header/Header'
import { StatusBar } from '../features/statusbar/StatusBar'
import { useApp } from '../store'
import { useLanguage } from './useLanguage'
import { useTheme } from './useTheme'

/** The app frame: header, building sidebar, graph canvas, status bar. Features fill the regions. */
export function App() {
  const language = useApp((s) => s.settings?.language)
  const theme = useApp((s) => s.settings?.theme)
  useLanguage(language)
  useTheme(theme)
  return (
    <div className="app-frame">
      <Header />
      <BuildingSidebar />
      <GraphCanvas />
      <StatusBar />
    </div>
  )
}
