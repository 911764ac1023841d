// Links into the desktop app: `loomverse://open#flow=<id>&node=<id>`, the same `#flow=…&node=…`
// the renderer keeps in its address (renderer/src/store/links.ts), behind a scheme the OS hands
// to the app. "Copy link" in the app gives one; opening it (from a note, a chat, a browser)
// brings the app forward at that conversation and message.

export const LINK_SCHEME = 'loomverse'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The renderer hash (`#flow=…&node=…`) a link names, or null for anything else. Only ids pass:
 * the hash is handed to the page, so nothing a link carries can be more than two ids.
 */
export function linkHash(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== `${LINK_SCHEME}:`) return null
  // `open#flow=…` and `open?flow=…` alike: some launchers drop the fragment, some the query.
  const params = new URLSearchParams(parsed.hash.replace(/^#/, '') || parsed.search.replace(/^\?/, ''))
  const flow = params.get('flow')
  const node = params.get('node')
  if (!flow || !UUID.test(flow)) return null
  return node && UUID.test(node)
    ? `#flow=${flow.toLowerCase()}&node=${node.toLowerCase()}`
    : `#flow=${flow.toLowerCase()}`
}

/** The link among a process's arguments (Windows and Linux pass it so), as a renderer hash. */
export function linkHashInArgv(argv: readonly string[]): string | null {
  for (const arg of argv) {
    if (!arg.toLowerCase().startsWith(`${LINK_SCHEME}:`)) continue
    const hash = linkHash(arg)
    if (hash) return hash
  }
  return null
}
