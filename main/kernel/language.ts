/** The languages Loomverse speaks: to the user, and to the model about the user's conversation. */
export type Language = 'ja' | 'en'

/**
 * The one language resolver of the main process: the setting when the user chose one;
 * `auto` follows the machine's locale (Japanese on a Japanese machine, English elsewhere).
 */
export function uiLanguage(setting: 'auto' | Language): Language {
  if (setting !== 'auto') return setting
  // Resolving the locale builds a formatter (about half a millisecond), and this is asked several
  // times per chat turn; the machine's locale does not change while the app runs.
  machineLanguage ??= Intl.DateTimeFormat().resolvedOptions().locale.toLowerCase().startsWith('ja') ? 'ja' : 'en'
  return machineLanguage
}

let machineLanguage: Language | undefined
