import { clipFlattened } from '../../kernel/clipText'

/** Past this, an item's text is cut: one long exchange must not eat the whole budget. */
export const ITEM_CHARS = 700

/**
 * A memory item's line in the pack: its text on one line (each line break, with the white
 * space around it, becomes " / "), cut after ITEM_CHARS with "…". Only the start the cut needs
 * is flattened (kernel/clipText.ts): a pack weighs ~150 finds, and flattening replies of 2.5 KB
 * whole (and keying them for duplicates) took 3.7 ms a pack, 1.2 now.
 */
export function itemText(raw: string): string {
  return clipFlattened(raw, ITEM_CHARS, (text) => text.replace(/\s*\n\s*/g, ' / '))
}

/** A unit's line in the pack and the key of finds that read the same (case and white space aside). */
export interface ItemLine {
  text: string
  key: string
  /** The text as the pack lists it ("- text"): one string for every pack, so its count is looked up, not made. */
  bullet: string
}

/** `itemText` with its key; empty text reads as no line at all. */
export function itemLine(raw: string): ItemLine | null {
  if (!raw.trim()) return null
  const text = itemText(raw)
  return { text, key: text.toLowerCase().replace(/\s+/g, ' ').trim(), bullet: `- ${text}` }
}
