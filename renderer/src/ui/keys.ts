/** Whether this is a Mac, where Mod is ⌘. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/** `Mod+Shift+Z` as this machine writes it: `Ctrl+Shift+Z`, or `⌘⇧Z` on a Mac. */
export function keyLabel(keys: string): string {
  if (!isMac) return keys.replace(/Mod/g, 'Ctrl')
  return keys
    .replace(/Mod\+/g, '⌘')
    .replace(/Shift\+/g, '⇧')
    .replace(/Alt\+/g, '⌥')
}
