/** Past this, an item's text is cut: one long exchange must not eat the whole budget. */
export const ITEM_CHARS = 700

/**
 * A memory item's line in the pack: its text on one line (each line break, with the white
 * space around it, becomes " / "), cut after ITEM_CHARS with "…". Only the start the cut needs
 * is flattened: a pack weighs ~150 finds, and flattening replies of 2.5 KB whole (and keying
 * them for duplicates) took 3.7 ms a pack, 1.2 now. The start is taken without its trailing white
 * space, whose run may go on (into a line break) past it; what is left flattens exactly as the
 * start of the whole text does.
 */
export function itemText(raw: string): string {
  for (let head = ITEM_CHARS + 100; ; head *= 2) {
    const whole = head >= raw.length
    const flat = (whole ? raw : raw.slice(0, head).trimEnd()).replace(/\s*\n\s*/g, ' / ')
    if (whole || flat.length > ITEM_CHARS) return flat.length > ITEM_CHARS ? `${flat.slice(0, ITEM_CHARS)}…` : flat
  }
}
