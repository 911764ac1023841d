/**
 * Which links a window may hand to the system (a Markdown link in a reply or a document):
 * web pages and mail only. Anything else — `file:`, `javascript:`, a custom protocol that would
 * start another program — is refused, as the app never navigates itself.
 */
export function opensExternally(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:'
  } catch {
    return false
  }
}
