// Structured output as each provider checks it before answering: a request the real service
// would refuse with 400 is refused here too, with the provider's own wording, so a connector
// that sends a malformed schema fails in tests and not first on a user's machine.

import { bodyObject, type Context } from './context'

/** OpenAI's `response_format`: null when acceptable, else the 400 message and the offending param. */
export function openaiResponseFormatError(ctx: Context): { message: string; param: string } | null {
  const body = bodyObject(ctx)
  const format = body.response_format as { type?: unknown; json_schema?: unknown } | undefined
  if (format === undefined || format === null) return null
  const bad = (message: string, param = 'response_format') => ({ message, param })
  if (format.type === 'text') return null
  if (format.type === 'json_object') return null
  if (format.type !== 'json_schema') {
    return bad(
      `Invalid value: '${String(format.type)}'. Supported values are: 'json_object', 'json_schema', and 'text'.`,
      'response_format.type',
    )
  }
  const spec = format.json_schema as { name?: unknown; schema?: unknown; strict?: unknown } | undefined
  if (!spec || typeof spec.name !== 'string') {
    return bad("Missing required parameter: 'response_format.json_schema.name'.", 'response_format.json_schema.name')
  }
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) {
    return bad(
      `Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      'response_format.json_schema.name',
    )
  }
  if (!spec.schema || typeof spec.schema !== 'object') {
    return bad("Invalid type for 'response_format.json_schema.schema': expected an object.")
  }
  if (spec.strict !== true) return null
  const problem = strictProblem(spec.schema as Record<string, unknown>, [])
  return problem ? bad(`Invalid schema for response_format '${spec.name}': ${problem}`) : null
}

/** What OpenAI's strict mode refuses in a schema: objects must list every property and allow no others. */
function strictProblem(schema: Record<string, unknown>, path: string[]): string | null {
  const where = `In context=(${path.map((p) => `'${p}'`).join(', ')})`
  for (const keyword of ['minLength', 'maxLength', 'default'])
    if (keyword in schema) return `${where}, '${keyword}' is not permitted.`
  const type = schema.type
  const isObject = type === 'object' || (Array.isArray(type) && type.includes('object'))
  if (isObject) {
    if (schema.additionalProperties !== false)
      return `${where}, 'additionalProperties' is required to be supplied and to be false.`
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
    const missing = Object.keys(properties).find((k) => !required.includes(k))
    if (missing)
      return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`
    for (const [key, value] of Object.entries(properties)) {
      const inner = strictProblem(value, [...path, 'properties', key])
      if (inner) return inner
    }
  }
  if (schema.items && typeof schema.items === 'object') {
    const inner = strictProblem(schema.items as Record<string, unknown>, [...path, 'items'])
    if (inner) return inner
  }
  for (const [i, option] of ((schema.anyOf as Array<Record<string, unknown>> | undefined) ?? []).entries()) {
    const inner = strictProblem(option, [...path, 'anyOf', String(i)])
    if (inner) return inner
  }
  return null
}

/** Fields of Gemini's `Schema` message; anything else is an unknown name to its JSON parser. */
const geminiSchemaFields = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
])
const geminiTypes = new Set(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'])

/** Gemini's `generationConfig.responseSchema`: null when acceptable, else the 400 message. */
export function geminiResponseSchemaError(ctx: Context): string | null {
  const config = bodyObject(ctx).generationConfig as Record<string, unknown> | undefined
  const schema = config?.responseSchema
  if (schema === undefined) return null
  if (config?.responseMimeType !== 'application/json' && config?.responseMimeType !== 'text/x.enum') {
    return '* GenerateContentRequest.generation_config.response_mime_type: response_schema is only supported with response_mime_type application/json or text/x.enum'
  }
  return geminiSchemaProblem(schema, 'generation_config.response_schema')
}

function geminiSchemaProblem(schema: unknown, at: string): string | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
    return `Invalid JSON payload received. Expected an object at '${at}'.`
  }
  for (const [key, value] of Object.entries(schema)) {
    if (!geminiSchemaFields.has(key)) {
      return `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`
    }
    if (key === 'type' && !(typeof value === 'string' && geminiTypes.has(value))) {
      return `Invalid JSON payload received. Invalid value at '${at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(value)}`
    }
    if (key === 'properties') {
      for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
        const problem = geminiSchemaProblem(inner, `${at}.properties[${name}].value`)
        if (problem) return problem
      }
    }
    if (key === 'items') {
      const problem = geminiSchemaProblem(value, `${at}.items`)
      if (problem) return problem
    }
    if (key === 'anyOf') {
      for (const [i, inner] of (value as unknown[]).entries()) {
        const problem = geminiSchemaProblem(inner, `${at}.any_of[${i}]`)
        if (problem) return problem
      }
    }
  }
  return null
}

/** Ollama's `format`: `"json"`, or a JSON Schema object; null when acceptable. */
export function ollamaFormatError(ctx: Context): string | null {
  const format = bodyObject(ctx).format
  if (format === undefined || format === null || format === '' || format === 'json') return null
  if (typeof format === 'object' && !Array.isArray(format) && 'type' in format) return null
  return 'invalid format: expected "json" or a valid JSON schema'
}
