import { z } from 'zod'
import { ApiChatRequest, contract } from '@shared/contract'
import { apiRoutes, type ApiRoute } from './apiRoutes'

const json = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>

const errorBody = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
  },
}

/**
 * The HTTP API as an OpenAPI 3.1 document, made from the route table and the zod contract at
 * request time: what it says cannot drift from what the router checks.
 */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of apiRoutes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    paths[path] = { ...paths[path], [route.verb.toLowerCase()]: operation(route) }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loomverse local API',
      version,
      description:
        'Served on 127.0.0.1 only. Every request needs `Authorization: Bearer <token>` with a token made in Settings → Connected programs.',
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  }
}

function operation(route: ApiRoute): Record<string, unknown> {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  const errors = {
    '400': { description: 'bad_input or bad_request', content: { 'application/json': { schema: errorBody } } },
    '401': { description: 'missing, unknown or revoked token' },
    '429': { description: 'rate limited; see Retry-After' },
  }
  if (route.path === '/api/chat') {
    return {
      summary: route.summary,
      requestBody: { required: true, content: { 'application/json': { schema: json(ApiChatRequest, 'input') } } },
      responses: { '200': { description: 'event stream', content: { 'text/event-stream': {} } }, ...errors },
    }
  }
  if (!route.method) {
    return { summary: route.summary, responses: { '200': { description: 'OK', content: { 'application/json': {} } } } }
  }
  const spec = contract[route.method]
  const input = json(spec.input, 'input')
  return {
    summary: route.summary,
    operationId: `${route.verb.toLowerCase()}_${route.method}`,
    ...(route.verb === 'GET'
      ? { parameters: [...params, ...queryParameters(input, params)] }
      : {
          ...(params.length > 0 ? { parameters: params } : {}),
          requestBody: { required: true, content: { 'application/json': { schema: input } } },
        }),
    responses: {
      '200': { description: 'OK', content: { 'application/json': { schema: json(spec.output, 'output') } } },
      ...errors,
    },
  }
}

/** A GET's input object as query parameters, leaving out what the path already gives. */
function queryParameters(input: Record<string, unknown>, inPath: Array<{ name: string | undefined }>) {
  const properties = (input.properties ?? {}) as Record<string, unknown>
  const required = new Set((input.required ?? []) as string[])
  const taken = new Set(inPath.map((p) => p.name))
  const pathOnly = new Set(['unit_id']) // the unit's id is the path's {id}
  return Object.entries(properties)
    .filter(([name]) => !taken.has(name) && !(taken.size > 0 && pathOnly.has(name)))
    .map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }))
}
