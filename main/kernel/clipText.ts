/**
 * `flatten(text)` cut after `n` characters with "…", flattening only as much of the start as the
 * cut needs: contexts and packs list hundreds of turns whose replies run to several KB, and
 * flattening each whole cost milliseconds a prompt. `flatten` must rewrite runs of white space
 * only (a line break into " / ", a run into one space); the start is taken without its trailing
 * white space, whose run may go on past it, so what is left flattens exactly as the start of
 * the whole text does.
 */
export function clipFlattened(text: string, n: number, flatten: (text: string) => string): string {
  for (let head = n + 100; ; head *= 2) {
    const whole = head >= text.length
    const flat = flatten(whole ? text : text.slice(0, head).trimEnd())
    if (whole || flat.length > n) return flat.length > n ? `${flat.slice(0, n)}…` : flat
  }
}
