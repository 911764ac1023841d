import { z } from 'zod'
import type { JsonSchemaRequest } from './types'

// The JSON Schema a structured-output request sends, derived from the zod schema the caller
// validates the answer with, so the two never drift apart.

/** Keywords OpenAI's strict mode refuses; the zod schema still checks them on our side. */
const dropped = new Set(['$schema', 'default', 'minLength', 'maxLength'])

/**
 * `schema` as strict JSON Schema every provider takes: each object lists all its properties
 * as required and allows no others (OpenAI's strict mode insists); an optional property may be
 * null instead of absent. Defaults and string lengths are left out, and zod's ±2^53 bounds on
 * integers, which say nothing.
 */
export function structuredSchema(name: string, schema: z.ZodType): JsonSchemaRequest {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>
  return { name, schema: strict(json) as Record<string, unknown> }
}

function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict)
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (dropped.has(key)) continue
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue
    out[key] = key === 'properties' ? mapValues(value as Record<string, unknown>, strict) : strict(value)
  }
  if (out.type === 'object' && out.properties) {
    const properties = out.properties as Record<string, Record<string, unknown>>
    const required = new Set((out.required as string[] | undefined) ?? [])
    for (const [key, property] of Object.entries(properties))
      if (!required.has(key)) properties[key] = nullable(property)
    out.required = Object.keys(properties)
    out.additionalProperties = false
  }
  return out
}

function nullable(property: Record<string, unknown>): Record<string, unknown> {
  const type = property.type
  if (Array.isArray(type)) return type.includes('null') ? property : { ...property, type: [...type, 'null'] }
  if (typeof type === 'string') return { ...property, type: [type, 'null'] }
  return { anyOf: [property, { type: 'null' }] }
}

function mapValues<T>(record: Record<string, T>, fn: (value: T) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]))
}
