import i18next from 'i18next'
import type { AppStore } from '.'

// Links to a conversation and a message in it: `#flow=<id>&node=<id>` after the page's address,
// in browser mode and inside the desktop app alike. The hash follows what is open (replaced, not
// a history entry per click); a link opened, pasted or followed opens that conversation there.

export interface Link {
  flowId: string
  nodeId: string | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The link in a location hash, or null when it holds none (or something else). */
export function parseLink(hash: string): Link | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const flowId = params.get('flow')
  const nodeId = params.get('node')
  if (!flowId || !UUID.test(flowId)) return null
  return { flowId, nodeId: nodeId && UUID.test(nodeId) ? nodeId : null }
}

/** `#flow=…&node=…` for a conversation and, given one, a message in it. */
export function linkHash(flowId: string, nodeId: string | null): string {
  return nodeId ? `#flow=${flowId}&node=${nodeId}` : `#flow=${flowId}`
}

/**
 * The whole address of a link: this page's, without its query (a token never goes into a link);
 * in the desktop app, whose page is a file, `loomverse://open#…`, which the OS hands to the app.
 */
export function linkUrl(flowId: string, nodeId: string | null, location: Location = window.location): string {
  if (location.protocol === 'file:') return `loomverse://open${linkHash(flowId, nodeId)}`
  return `${location.origin}${location.pathname}${linkHash(flowId, nodeId)}`
}

/** Links each window's store has followed: one followed while an earlier one is still opening supersedes it. */
const followedBy = new WeakMap<AppStore, number>()

/**
 * Opens what a link names: its conversation, and the message selected and in view. A
 * conversation or message that is not here (deleted, or from another data folder) is said so,
 * and what is open stays. Resolves with whether the conversation opened, or true when a link
 * followed after this one took over (the last link wins: an earlier one still opening would
 * otherwise select its message after the later one showed its own).
 */
export async function followLink(store: AppStore, link: Link): Promise<boolean> {
  const mine = (followedBy.get(store) ?? 0) + 1
  followedBy.set(store, mine)
  const superseded = () => followedBy.get(store) !== mine
  let s = store.getState()
  if (!s.flows.some((f) => f.id === link.flowId)) await s.loadFlows()
  if (superseded()) return true
  s = store.getState()
  if (!s.flows.some((f) => f.id === link.flowId)) {
    s.toast('error', i18next.t('links.noFlow'))
    return false
  }
  // Opened around the message: a big flow's first part then holds it. Open already, a big flow
  // still reading its rest may not hold it yet: opened again around it.
  const held = link.nodeId === null || s.members[link.nodeId] !== undefined
  if (s.flowId !== link.flowId || (!held && s.flowLoading !== null))
    await s.openFlow(link.flowId, link.nodeId ?? undefined)
  if (superseded()) return true
  s = store.getState()
  if (s.flowId !== link.flowId) return false
  if (link.nodeId) {
    if (s.members[link.nodeId]) {
      await s.ensureNode(link.nodeId)
      if (superseded()) return true
      store.getState().focusNode(link.nodeId)
    } else s.toast('error', i18next.t('links.noNode'))
  }
  return true
}

/**
 * Keeps the address's hash on the open conversation and selected message, and follows a link
 * pasted into the address bar of this page. Returns the function that stops both.
 */
export function wireLinks(store: AppStore): () => void {
  const write = () => {
    const { flowId, selectedId } = store.getState()
    if (!flowId) return
    const hash = linkHash(flowId, selectedId)
    if (window.location.hash !== hash) window.history.replaceState(window.history.state, '', hash)
  }
  const stop = store.subscribe((s, prev) => {
    if (s.flowId !== prev.flowId || s.selectedId !== prev.selectedId) write()
  })
  const onHash = (event: HashChangeEvent) => {
    // The address as the link set it: the hash may since have been rewritten to what is open.
    const link = parseLink(new URL(event.newURL).hash)
    // A link that opens nothing leaves the address naming what is still open.
    if (link) void followLink(store, link).then((opened) => opened || write())
    else write()
  }
  window.addEventListener('hashchange', onHash)
  return () => {
    stop()
    window.removeEventListener('hashchange', onHash)
  }
}
