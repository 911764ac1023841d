// The base stylesheets first (React Flow's, then ours): each component's own CSS, imported with it, comes after and wins.
import '@xyflow/react/dist/style.css'
import './app/tokens.css'
import './app/styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { connect } from './bridge'
import { initI18n, pickLanguage } from './i18n'
import { createAppStore, StoreContext } from './store'

async function boot(): Promise<void> {
  const client = connect()
  const store = createAppStore(client)
  // Settings decide the first language, so the first paint is already in the user's language.
  await store.getState().loadSettings()
  await initI18n(pickLanguage(store.getState().settings?.language ?? 'auto', navigator.languages))
  void store.getState().loadInfo()
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </StrictMode>,
  )
}

boot().catch((e: unknown) => {
  const root = document.getElementById('root')!
  root.textContent = `Loomverse could not load: ${e instanceof Error ? e.message : String(e)}`
})
