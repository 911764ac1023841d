/**
 * A random number in [0, 1) fixed by `seed` and `salt`: a lorebook's probability rolls and group
 * draws for one prompt are the same in the inspector's preview and in the turn that is sent, and
 * a test can name its outcome. FNV-1a over the text, then mulberry32's finaliser to spread the bits.
 */
export function seededRandom(seed: string): (salt: string) => number {
  return (salt) => {
    let h = 0x811c9dc5
    const text = `${seed}\u0000${salt}`
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
    let t = (h + 0x6d2b79f5) | 0
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
