// Deterministic embeddings: the same model and text always give the same unit vector.

const maxDimensions = 4096

/**
 * Values are float32-exact, so a base64 round trip (OpenAI's default encoding) returns them
 * unchanged. A text naming a word of a `meanings` group lies close to every other text of that
 * group (one shared direction, a little of its own), so tests can show search by meaning.
 */
export function embed(model: string, text: string, dimensions: number, meanings: readonly string[][] = []): number[] {
  const size = Math.min(Math.max(1, Math.floor(dimensions)), maxDimensions)
  const raw = noise(`${model}\u0000${text}`, size)
  const lower = text.toLowerCase()
  const group = meanings.findIndex((words) => words.some((w) => lower.includes(w.toLowerCase())))
  if (group >= 0) {
    const direction = noise(`${model}\u0000meaning ${group}`, size)
    for (let i = 0; i < size; i++) raw[i] = direction[i]! + 0.1 * raw[i]!
  }
  const norm = Math.hypot(...raw) || 1
  return raw.map((v) => Math.fround(v / norm))
}

/** Little-endian float32 bytes in base64, as OpenAI sends `encoding_format: 'base64'`. */
export function toBase64Floats(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64')
}

/** The requested size when it is a usable positive integer, else the fallback. */
export function dimensionsFrom(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback
}

function noise(seed: string, size: number): number[] {
  let state = hash(seed)
  const out: number[] = []
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    out.push(state / 0x100000000 - 0.5)
  }
  return out
}

function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}
