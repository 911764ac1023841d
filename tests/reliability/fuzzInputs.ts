import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { contract, type Method } from '@shared/contract'

// Inputs for the contract fuzzer, drawn from each method's own zod schema (as JSON Schema,
// which zod writes for us): plausible inputs that reach the handlers — with ids of things
// that exist — and hostile ones that break one rule or many.

type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  minItems?: number
  maxItems?: number
}

/** Things that exist in the fuzzed app, by kind, so plausible inputs name real ones. */
export interface IdPools {
  flows: string[]
  nodes: string[]
  personas: string[]
  buildings: string[]
  items: string[]
  trash: string[]
  units: number[]
}

export function emptyPools(): IdPools {
  return { flows: [], nodes: [], personas: [], buildings: [], items: [], trash: [], units: [] }
}

const schemas = new Map<Method, JsonSchema>()
function inputSchema(method: Method): JsonSchema {
  let s = schemas.get(method)
  if (!s) {
    s = z.toJSONSchema(contract[method].input, { unrepresentable: 'any', io: 'input' }) as JsonSchema
    schemas.set(method, s)
  }
  return s
}

/** Strings that have broken parsers, databases and terminals before. */
const oddStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800', // a lone surrogate: not valid UTF-16, no UTF-8 encoding
  'x\uDFFFy',
  '\u202Egnp.exe', // right-to-left override
  '\u200B\u200C\u200D\uFEFF',
  'e\u0301\u0301\u0301',
  '🧵'.repeat(50),
  '日本語のテキスト',
  '../../../../etc/passwd',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  "'; DROP TABLE nodes; --",
  '" OR 1=1 --',
  '__proto__',
  'constructor',
  '%s%s%s%n',
  '${process.exit()}',
  '<script>alert(1)</script>',
  'NaN',
  '-1',
  '\r\n\r\n',
  '\t',
  'MATCH "',
  '*',
  '"',
]

const oddNumbers = [-1, 0, 0.5, -0, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 1e308, Number.NaN, Infinity, -Infinity]

export class InputFuzzer {
  constructor(
    private readonly random: () => number,
    private readonly pools: IdPools,
  ) {}

  /** Plausible about two times in five, hostile otherwise. */
  input(method: Method): unknown {
    const schema = inputSchema(method)
    const plausible = this.fromSchema(schema, method, '')
    if (this.random() < 0.4) return plausible
    const r = this.random()
    if (r < 0.1) return this.hostileValue() // the whole input replaced: null, a string, an array…
    let input = plausible
    const mutations = 1 + Math.floor(this.random() * 3)
    for (let m = 0; m < mutations; m++) input = this.mutate(input, schema)
    return input
  }

  /** A value that is usually not what the schema wants. */
  hostileValue(depth = 0): unknown {
    const r = this.random()
    if (r < 0.3) return this.pick(oddStrings)
    if (r < 0.45) return this.pick(oddNumbers)
    if (r < 0.5) return this.random() < 0.5
    if (r < 0.55) return null
    if (r < 0.62) return this.hugeString()
    // Deep enough to hurt a recursive walk; not so deep that the test's own JSON.stringify overflows.
    if (r < 0.7) return this.deep(50 + Math.floor(this.random() * 1_500))
    if (r < 0.75) return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}')
    if (r < 0.8) return randomUUID()
    return depth < 3 ? this.randomJson(depth + 1) : 'x'
  }

  private mutate(input: unknown, schema: JsonSchema): unknown {
    if (!isObject(input)) return this.hostileValue()
    const out: Record<string, unknown> = { ...input }
    const keys = Object.keys(schema.properties ?? {})
    const r = this.random()
    if (r < 0.15 && schema.required?.length) delete out[this.pick(schema.required)]
    else if (r < 0.25) out[this.pick(['extra', 'id', '__proto__', 'constructor', '', '\u0000'])] = this.hostileValue()
    else if (r < 0.4 && keys.length) {
      // A boundary value for one field: one past its limits.
      const key = this.pick(keys)
      out[key] = this.boundary(schema.properties![key]!)
    } else if (keys.length) out[this.pick(keys)] = this.hostileValue()
    return out
  }

  /** Just outside (or exactly at) a field's limits. */
  private boundary(s: JsonSchema): unknown {
    const schema = this.resolveUnion(s)
    if (schema.type === 'string') {
      if (schema.maxLength !== undefined && schema.maxLength <= 2_100_000 && this.random() < 0.5)
        return 'm'.repeat(schema.maxLength + (this.random() < 0.5 ? 1 : 0))
      if (schema.minLength !== undefined) return 'm'.repeat(Math.max(0, schema.minLength - 1))
      return ''
    }
    if (schema.type === 'integer' || schema.type === 'number') {
      const low = schema.minimum ?? schema.exclusiveMinimum
      if (low !== undefined && this.random() < 0.5) return low - 1
      if (schema.maximum !== undefined) return schema.maximum + 1
      return this.pick(oddNumbers)
    }
    if (schema.type === 'array') {
      const max = schema.maxItems
      if (max !== undefined && max <= 100_000) return Array.from({ length: max + 1 }, () => 'x')
      return []
    }
    return this.hostileValue()
  }

  private fromSchema(s: JsonSchema, method: Method, key: string): unknown {
    if (s.const !== undefined) return s.const
    if (s.enum) return this.pick(s.enum)
    const schema = this.resolveUnion(s)
    if (schema !== s) return this.fromSchema(schema, method, key)
    const type = Array.isArray(schema.type) ? this.pick(schema.type) : schema.type
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {}
        const required = new Set(schema.required ?? [])
        for (const [k, sub] of Object.entries(schema.properties ?? {})) {
          if (required.has(k) || this.random() < 0.5) out[k] = this.fromSchema(sub, method, k)
        }
        if (!schema.properties && isObject(schema.additionalProperties)) {
          for (let i = Math.floor(this.random() * 3); i > 0; i--)
            out[this.word()] = this.fromSchema(schema.additionalProperties, method, '')
        } else if (!schema.properties && schema.additionalProperties !== false) {
          for (let i = Math.floor(this.random() * 3); i > 0; i--) out[this.word()] = this.randomJson(1)
        }
        return out
      }
      case 'array': {
        const min = schema.minItems ?? 0
        const n = min + Math.floor(this.random() * Math.max(1, Math.min(schema.maxItems ?? 3, 3) - min + 1))
        const itemKey = key.endsWith('s') ? key.slice(0, -1) : key
        return Array.from({ length: n }, () => (schema.items ? this.fromSchema(schema.items, method, itemKey) : 'x'))
      }
      case 'string':
        return this.string(schema, method, key)
      case 'integer':
        return this.integer(schema, key)
      case 'number':
        return this.random() * Math.min(schema.maximum ?? 1000, 1000)
      case 'boolean':
        return this.random() < 0.5
      case 'null':
        return null
      default:
        return this.randomJson(1)
    }
  }

  private string(schema: JsonSchema, method: Method, key: string): string {
    const pool = this.poolFor(method, key)
    if (pool && pool.length > 0 && this.random() < 0.85) return String(this.pick(pool))
    if (schema.format === 'uuid') return randomUUID()
    if (key.endsWith('model') && this.random() < 0.7)
      return this.pick(['openai:gpt-4o-mini', 'ollama:llama3', 'gemini:x'])
    if (key === 'base_url') return this.pick(['http://127.0.0.1:9/v1', 'https://127.0.0.1:9'])
    if (key === 'action_json') return this.actionJson()
    if (key === 'data_base64') return this.pick(['', 'iVBORw0KGgo=', '////', 'not base64!', 'AAAA'.repeat(100)])
    const min = schema.minLength ?? 0
    const max = Math.min(schema.maxLength ?? 40, 40)
    let text = ''
    const length = min + Math.floor(this.random() * Math.max(1, max - min + 1))
    while (text.length < length) text += this.random() < 0.8 ? this.word() + ' ' : this.pick(oddStrings)
    return text.slice(0, Math.max(min, Math.min(length, schema.maxLength ?? length)))
  }

  private integer(schema: JsonSchema, key: string): number {
    if (key === 'unit_id' && this.pools.units.length > 0 && this.random() < 0.85) return this.pick(this.pools.units)
    const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0)
    const high = Math.min(schema.maximum ?? low + 100, low + 1000)
    return low + Math.floor(this.random() * (high - low + 1))
  }

  /** Which things a field names, by its name and the method's. */
  private poolFor(method: Method, key: string): Array<string | number> | null {
    const p = this.pools
    switch (key) {
      case 'flow_id':
        return p.flows
      case 'node_id':
      case 'parent_id':
      case 'source_id':
      case 'target_id':
      case 'new_source_id':
      case 'new_target_id':
        return p.nodes
      case 'persona_id':
        return p.personas
      case 'building_id':
        return p.buildings
      case 'item_id':
        return p.items
      case 'trash_id':
        return p.trash
      case 'id':
        if (method.includes('persona')) return p.personas
        if (method.includes('building')) return p.buildings
        if (method.includes('node') || method.includes('branch')) return p.nodes
        return p.flows
      default:
        return null
    }
  }

  private actionJson(): string {
    const r = this.random()
    if (r < 0.3) return JSON.stringify({ action_type: 'update_description', description: this.word() })
    if (r < 0.6)
      return JSON.stringify({ action_type: 'patch_content', patch: this.pick(['more text', '@@ -1 +1 @@\n-a\n+b\n']) })
    if (r < 0.8) return JSON.stringify(this.randomJson(1))
    return this.pick(['{', 'null', '[]', '{"action_type": 5}', '"x"'])
  }

  private resolveUnion(s: JsonSchema): JsonSchema {
    const options = s.anyOf ?? s.oneOf
    return options ? this.pick(options) : s
  }

  private randomJson(depth: number): unknown {
    const r = this.random()
    if (depth > 3 || r < 0.4) return this.pick<unknown>([this.word(), 1, -1, true, null, this.pick(oddStrings)])
    if (r < 0.7) return Array.from({ length: Math.floor(this.random() * 4) }, () => this.randomJson(depth + 1))
    const o: Record<string, unknown> = {}
    for (let i = Math.floor(this.random() * 4); i > 0; i--) o[this.word()] = this.randomJson(depth + 1)
    return o
  }

  private hugeString(): string {
    const unit = this.pick(['a', 'é', '語', '🧵', '\u0000', '\\'])
    return unit.repeat(this.pick([100_000, 1_000_000, 2_000_001]))
  }

  /** Objects and arrays nested `levels` deep. */
  private deep(levels: number): unknown {
    let v: unknown = 'bottom'
    for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v }
    return v
  }

  private word(): string {
    const letters = 'abcdefghijklmnopqrstuvwxyz'
    let w = ''
    for (let i = 1 + Math.floor(this.random() * 8); i > 0; i--) w += letters[Math.floor(this.random() * 26)]
    return w
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
