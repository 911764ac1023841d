/** A small deterministic generator in [0, 1), so a failing randomised test can be replayed. */
export function seededRandom(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return s / 2 ** 31
  }
}
