import type { Method } from '@shared/contract'

/** What a route's input is made from: path parameters, the query string and the JSON body. */
export interface RouteRequest {
  params: Record<string, string>
  query: URLSearchParams
  body: unknown
}

export interface ApiRoute {
  verb: 'GET' | 'POST' | 'PATCH'
  /** `:name` segments are parameters. */
  path: string
  summary: string
  /** The contract method it runs (its input and output schemas document it); absent for the host's own. */
  method?: Method
  input?: (r: RouteRequest) => unknown
}

/** Query values that are numbers in the contract; everything else stays text. */
function fromQuery(query: URLSearchParams, numeric: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of query) out[k] = numeric.includes(k) && /^-?\d+$/.test(v) ? Number(v) : v
  return out
}

const unitId = (r: RouteRequest) => (/^\d+$/.test(r.params.id!) ? Number(r.params.id) : r.params.id)
const bodyObject = (r: RouteRequest) => (r.body && typeof r.body === 'object' ? (r.body as object) : {})

/**
 * The HTTP API's endpoints. Every one that reads or changes data runs a contract method through
 * the router, so the same validation, handlers and errors serve the UI and other programs.
 */
export const apiRoutes: readonly ApiRoute[] = [
  { verb: 'GET', path: '/api/openapi.json', summary: 'This API described as OpenAPI 3.1.' },
  {
    verb: 'POST',
    path: '/api/chat',
    summary:
      'One exchange with a persona as Server-Sent Events: `delta` {text} chunks, then `done` {node_id, unit_id, stats} or `error` {code, message}.',
  },
  {
    verb: 'POST',
    path: '/api/mcp',
    summary:
      "A persona's memory as an MCP server (Streamable HTTP, stateless, JSON responses): memory_search, memory_pack, list_conversations, read_node, and notify for a token made to (or when serve runs with --mcp-allow-writes); conversations as resources. ?persona=NAME_OR_ID serves that persona alone.",
  },
  {
    verb: 'POST',
    path: '/api/notification',
    summary:
      'Hands the persona a notification to pass on: {persona_id?, source_system, text, images?} → {unit_id} at once; the reply follows on /api/events/stream.',
    method: 'memory_notify',
    input: bodyObject,
  },
  {
    verb: 'POST',
    path: '/api/meta_request',
    summary:
      'An instruction for the persona about some text: {persona_id? | memory_id?, instruction, payload_text, images?} → {unit_id}; stored as [redacted].',
    method: 'memory_meta_request',
    input: bodyObject,
  },
  {
    verb: 'GET',
    path: '/api/events/stream',
    summary:
      'WebSocket (upgrade with the same Bearer token): {unit_id, type, data} for replies to notifications and meta requests, and memory changes.',
  },
  {
    verb: 'GET',
    path: '/api/memory/units',
    summary: "A persona's memory units; ?persona_id=…&kind=&state=&query=&limit=&offset=",
    method: 'memory_list_units',
    input: (r) => fromQuery(r.query, ['entity_id', 'from', 'to', 'limit', 'offset']),
  },
  {
    verb: 'POST',
    path: '/api/memory/search',
    summary: "Searches a persona's memory: {persona_id, query, limit?}",
    method: 'memory_list_units',
    input: bodyObject,
  },
  {
    verb: 'GET',
    path: '/api/memory/units/:id',
    summary: 'One memory unit with its payload, versions and evidence; ?persona_id=…',
    method: 'memory_get_unit',
    input: (r) => ({ ...fromQuery(r.query, []), unit_id: unitId(r) }),
  },
  {
    verb: 'PATCH',
    path: '/api/memory/units/:id',
    summary: "Edits a unit's payload (a new version is kept): {persona_id, payload, reason?}",
    method: 'memory_edit_unit',
    input: (r) => ({ ...bodyObject(r), unit_id: unitId(r) }),
  },
  {
    verb: 'POST',
    path: '/api/memory/units/:id/pin',
    summary: 'Pins or unpins a unit: {persona_id, pin}',
    method: 'memory_pin_unit',
    input: (r) => ({ ...bodyObject(r), unit_id: unitId(r) }),
  },
  {
    verb: 'POST',
    path: '/api/memory/units/:id/archive',
    summary: 'Archives or restores a unit: {persona_id, archived}',
    method: 'memory_archive_unit',
    input: (r) => ({ ...bodyObject(r), unit_id: unitId(r) }),
  },
  {
    verb: 'GET',
    path: '/api/memory/status',
    summary: "A persona's memory: counts, jobs, spend, pause; ?persona_id=…",
    method: 'memory_status',
    input: (r) => fromQuery(r.query, []),
  },
]

/** The route for a path, with its parameters; `verbs` lists what the path answers when the verb is wrong. */
export function matchRoute(
  verb: string,
  pathname: string,
): { route: ApiRoute; params: Record<string, string> } | { verbs: string[] } | null {
  const verbs: string[] = []
  for (const route of apiRoutes) {
    const params = matchPath(route.path, pathname)
    if (!params) continue
    if (route.verb === verb) return { route, params }
    verbs.push(route.verb)
  }
  return verbs.length > 0 ? { verbs } : null
}

function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/')
  const got = pathname.split('/')
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) {
      if (got[i] === '') return null
      params[want[i]!.slice(1)] = decodeURIComponent(got[i]!)
    } else if (want[i] !== got[i]) return null
  }
  return params
}
