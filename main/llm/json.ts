// Lenient JSON reading for what providers and models hand back: bad text is an answer, not a crash.

/** The parsed value, or undefined when `text` is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The JSON object in `text`; `{}` when it is not JSON or not an object (tool arguments, say). */
export function parseObject(text: string): Record<string, unknown> {
  const value = parseJson(text)
  return isObject(value) ? value : {}
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
