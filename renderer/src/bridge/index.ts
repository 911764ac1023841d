import type { Bridge } from '@shared/contract'
import type { Client } from './client'
import { electronClient } from './electronClient'
import { wsClient } from './wsClient'

export type { Client, ConnectionState } from './client'

declare global {
  interface Window {
    loomverse?: Bridge
  }
}

const TOKEN_KEY = 'loomverse.token'

/** Electron's preload bridge when present, else the WebSocket host that served this page. */
export function connect(): Client {
  if (window.loomverse) return electronClient(window.loomverse)
  const token = takeToken()
  const url = new URL('/ws', window.location.href)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  url.search = new URLSearchParams({ token }).toString()
  return wsClient({ url: url.href })
}

/**
 * Reads the token from `?token=` once, keeps it for this tab only, and takes it out of
 * the address bar so it does not end up in screenshots, bookmarks or shared links.
 */
function takeToken(): string {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    url.searchParams.delete('token')
    window.history.replaceState(null, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}
