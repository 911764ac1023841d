// Deterministic embeddings: the same model and text always give the same unit vector.

const maxDimensions = 4096

/** Values are float32-exact, so a base64 round trip (OpenAI's default encoding) returns them unchanged. */
export function embed(model: string, text: string, dimensions: number): number[] {
  const size = Math.min(Math.max(1, Math.floor(dimensions)), maxDimensions)
  let state = hash(`${model}\u0000${text}`)
  const raw: number[] = []
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    raw.push(state / 0x100000000 - 0.5)
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

function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}
