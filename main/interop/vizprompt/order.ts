/**
 * Plain UTF-16 code-unit order. Used wherever the order ends up in a file, because
 * `localeCompare` depends on the machine's locale and would make exports differ by machine.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
