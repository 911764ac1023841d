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
  let token = takeToken()
  const url = () => {
    const at = new URL('/ws', window.location.href)
    at.protocol = at.protocol === 'https:' ? 'wss:' : 'ws:'
    // Without a token of its own the tab presents the cookie its page load set.
    at.search = token ? new URLSearchParams({ token }).toString() : ''
    return at.href
  }
  const tokenRefused = async () => {
    if (!(await refuses(token))) return false
    // Another tab of this browser opened the renewed address: the cookie holds the new token.
    if (token && !(await refuses(''))) {
      token = ''
      sessionStorage.removeItem(TOKEN_KEY)
      return false
    }
    return true
  }
  return wsClient({ url, tokenRefused })
}

/** Whether the host is up and refuses this token (the cookie's, given none): a page load with it would get 401. */
async function refuses(token: string): Promise<boolean> {
  try {
    const answer = await fetch(token ? `/?${new URLSearchParams({ token })}` : '/', {
      method: 'HEAD',
      cache: 'no-store',
    })
    return answer.status === 401
  } catch {
    return false // the host is down: only reconnecting
  }
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
