import type { TFunction } from 'i18next'

/**
 * A translated string with placeholders, translated once and filled per use. The canvas labels
 * every card and connection ("Turn #12", "From #3 to #4"): i18next's `t` per label cost about
 * half a second of opening a 10,000-node flow, for the same two strings.
 */
export function labelTemplate<K extends string>(
  t: TFunction,
  key: string,
  names: readonly K[],
): (values: Record<K, string | number>) => string {
  // Markers no translation contains, put where i18next puts each value.
  const marker = (name: string) => `\u0000${name}\u0000`
  const parts = t(key, Object.fromEntries(names.map((n) => [n, marker(n)]))).split('\u0000')
  // Odd parts are the names between markers; even parts are the text around them.
  return (values) => parts.map((part, i) => (i % 2 === 1 ? String(values[part as K]) : part)).join('')
}
