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

/** At most this many closing braces are tried as the end of the first object (bounds the work). */
const maxObjectEnds = 200

/**
 * The first JSON object in a model's answer: the whole text, else the inside of a Markdown code
 * fence, else the shortest well-formed object starting at the first `{` (prose or a second
 * object after it is left out). Undefined when there is none.
 */
export function firstJsonObject(text: string): Record<string, unknown> | undefined {
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(text)?.[1]
  for (const candidate of [text, fenced]) {
    const value = candidate === undefined ? undefined : parseJson(candidate.trim())
    if (isObject(value)) return value
  }
  const start = text.indexOf('{')
  if (start < 0) return undefined
  let end = text.indexOf('}', start)
  for (let tried = 0; end >= 0 && tried < maxObjectEnds; tried++, end = text.indexOf('}', end + 1)) {
    const value = parseJson(text.slice(start, end + 1))
    if (isObject(value)) return value
  }
  return undefined
}
