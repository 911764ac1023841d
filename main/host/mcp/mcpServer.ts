import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { FlowSummary, In, Method, Out, Persona } from '@shared/contract'
import { AppError } from '@shared/errors'
import { version } from '../../../package.json'
import type { Core } from '../../core'
import { newestNode, pathMarkdown } from '../../interop/markdownExport'
import { matchPersona } from '../../persona/personaRef'
import type { CoreAccess } from './lazyCore'

export interface MemoryServerOptions {
  cores: CoreAccess
  /** The persona every call is about (`--persona`); null: each call names one, or there is only one. */
  personaId: string | null
  /** `--allow-writes` (`serve --mcp-allow-writes` over HTTP): offer the tools that change something (notify). */
  allowWrites: boolean
  /** One line per call: the tool, its outcome and how long it took. */
  logCall: (line: string) => void
}

/** A notification's reply is awaited this long with the core held open; after that the next start answers it. */
const REPLY_HOLD_MS = 10 * 60_000
const SEARCH_DEFAULT = 10
const CONVERSATION_URI = 'loomverse://conversation/{flow_id}'

/**
 * `loomverse mcp`: a persona's memory and conversations offered to the user's other agents.
 * Every call goes through the router (the checks every window gets); SECRET units are left
 * out of everything returned, and nothing is written unless the command line allowed it.
 */
export function memoryServer(options: MemoryServerOptions): McpServer {
  const { cores } = options
  const server = new McpServer(
    { name: 'loomverse', version },
    {
      instructions:
        "Loomverse's long-term memory of a persona, built from the user's conversations with it. " +
        'Search it with memory_search, or get a ready-to-read summary for a question with memory_pack.' +
        (options.allowWrites ? ' notify hands the persona a message; its reply appears in Loomverse.' : ''),
    },
  )
  const personaArg = {
    persona: z.string().min(1).optional().describe('Which persona (name or id); needed when there are several'),
  }

  const tool = <A extends z.ZodRawShape>(
    name: string,
    description: string,
    args: A,
    run: (a: z.infer<z.ZodObject<A>>, core: Core) => Promise<unknown>,
  ) => {
    // With --persona the server is that persona's alone: the argument is not offered at all.
    const { persona: _, ...withoutPersona } = args
    const inputSchema = options.personaId ? withoutPersona : args
    server.registerTool(name, { description, inputSchema }, (async (a: z.infer<z.ZodObject<A>>) => {
      const started = performance.now()
      try {
        const value = await cores.use((core) => run(a, core))
        options.logCall(`${name} ok ${Math.round(performance.now() - started)}ms`)
        return asText(value)
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e)
        options.logCall(`${name} failed ${Math.round(performance.now() - started)}ms: ${message}`)
        return { isError: true, content: [{ type: 'text', text: message }] } satisfies CallToolResult
      }
    }) as never)
  }

  const personaOf = async (core: Core, ref: string | undefined): Promise<Persona> => {
    const personas = await call(core, 'list_personas', {})
    if (options.personaId) return matchPersona(personas, options.personaId)
    if (ref) return matchPersona(personas, ref)
    if (personas.length === 1) return personas[0]!
    throw new AppError(
      'bad_input',
      personas.length === 0
        ? 'there are no personas yet; create one in Loomverse first'
        : `say which persona ("persona"): ${personas.map((p) => `${p.name} (${p.id})`).join(', ')}`,
    )
  }

  tool(
    'memory_search',
    "Searches a persona's long-term memory for units (episodes, facts, summaries) matching words; each comes with the evidence it rests on and the conversation it came from.",
    {
      ...personaArg,
      query: z.string().min(1).max(1000).describe('Words to find'),
      limit: z.number().int().min(1).max(50).optional().describe(`How many units (default ${SEARCH_DEFAULT})`),
    },
    async (a, core) => {
      const persona = await personaOf(core, a.persona)
      const found = await call(core, 'memory_list_units', {
        persona_id: persona.id,
        query: a.query,
        limit: Math.min(1000, (a.limit ?? SEARCH_DEFAULT) * 3),
      })
      const flows = flowNames(core)
      const units = []
      for (const unit of found.units) {
        if (unit.sensitivity === 'secret') continue
        if (units.length === (a.limit ?? SEARCH_DEFAULT)) break
        const detail = await call(core, 'memory_get_unit', { persona_id: persona.id, unit_id: unit.id })
        units.push({
          ...unitView(unit, flows),
          evidence: detail.evidence.filter((e) => e.sensitivity !== 'secret').map((e) => unitView(e, flows)),
        })
      }
      return { persona: persona.name, units }
    },
  )

  tool(
    'memory_pack',
    "What the persona would remember about a question, as one text within a token budget (persona, facts, summaries, episodes chosen by the persona's own retrieval).",
    {
      ...personaArg,
      query: z.string().min(1).max(100_000).describe('The question or topic'),
      budget: z.number().int().min(50).max(100_000).optional().describe('Most tokens of the text (default 1500)'),
    },
    async (a, core) => {
      const persona = await personaOf(core, a.persona)
      // include_secret is never passed: the pack leaves SECRET units out by default.
      const pack = await call(core, 'memory_pack', {
        persona_id: persona.id,
        query: a.query,
        budget_tokens: a.budget ?? 1500,
      })
      return pack.text || '(nothing in memory matches)'
    },
  )

  tool(
    'list_conversations',
    "Lists the user's conversations (of the persona this server is for, when it is for one), newest first.",
    { query: z.string().max(200).optional().describe('Only those whose name holds these words') },
    async (a, core) => {
      const words = a.query?.toLowerCase()
      return visibleFlows(core, options.personaId)
        .filter((f) => !words || f.name.toLowerCase().includes(words))
        .map((f) => ({
          id: f.id,
          name: f.name,
          turns: f.node_count,
          last_activity: f.last_activity,
          uri: CONVERSATION_URI.replace('{flow_id}', f.id),
        }))
    },
  )

  tool(
    'read_node',
    'Reads one turn of a conversation (the prompt and the reply) by its node id, as memory_search names them.',
    { node_id: z.string().min(1).max(200) },
    async (a, core) => {
      const node = core.graph.findNode(a.node_id)
      const flows = node ? visibleFlows(core, options.personaId).filter((f) => core.graph.isMember(f.id, node.id)) : []
      if (!node || flows.length === 0) throw new AppError('not_found', `no node "${a.node_id}" here`)
      return {
        id: node.id,
        timestamp: node.timestamp,
        conversations: flows.map((f) => ({ id: f.id, name: f.name })),
        prompt: node.prompt,
        response: node.response,
        model: node.metadata.model,
      }
    },
  )

  if (options.allowWrites) {
    tool(
      'notify',
      'Hands the persona a notification (news, a reminder, a result) to pass on to the user; the persona answers it in Loomverse later. Returns the id of the memory it is kept as.',
      {
        ...personaArg,
        text: z.string().min(1).max(100_000),
        source: z.string().min(1).max(200).optional().describe('Who sends it (default "mcp")'),
      },
      async (a, core) => {
        const persona = await personaOf(core, a.persona)
        // The same path as the HTTP API's /api/notification: stored first, answered after.
        const accepted = await call(core, 'memory_notify', {
          persona_id: persona.id,
          source_system: a.source ?? 'mcp',
          text: a.text,
        })
        cores.holdUntil(replied(core, accepted.unit_id))
        return { unit_id: accepted.unit_id, persona: persona.name }
      },
    )
  }

  server.registerResource(
    'conversation',
    new ResourceTemplate(CONVERSATION_URI, {
      list: () =>
        cores.use((core) => ({
          resources: visibleFlows(core, options.personaId).map((f) => ({
            uri: CONVERSATION_URI.replace('{flow_id}', f.id),
            name: f.name,
            mimeType: 'text/markdown',
          })),
        })),
    }),
    { description: 'A conversation as Markdown: its active path, oldest turn first', mimeType: 'text/markdown' },
    async (uri, vars) => {
      const started = performance.now()
      const flowId = String(vars.flow_id)
      try {
        const text = await cores.use((core) => {
          const flow = visibleFlows(core, options.personaId).find((f) => f.id === flowId)
          if (!flow) throw new AppError('not_found', `no conversation "${flowId}" here`)
          const nodeId = newestNode(core.graph, flow.id)
          return nodeId ? pathMarkdown(core.graph, flow.id, nodeId).markdown : `# ${flow.name}\n`
        })
        options.logCall(`read ${uri.href} ok ${Math.round(performance.now() - started)}ms`)
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] }
      } catch (e) {
        options.logCall(`read ${uri.href} failed: ${(e as Error).message}`)
        throw e
      }
    },
  )
  return server
}

function asText(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }] }
}

/** Through the router, so other agents get the same checks as every window. */
export async function call<M extends Method>(core: Core, method: M, input: In<M>): Promise<Out<M>> {
  const result = await core.router.call(method, input, { transport: 'internal' })
  if (result.ok) return result.value as Out<M>
  throw new AppError(result.error.code, result.error.message)
}

function visibleFlows(core: Core, personaId: string | null): FlowSummary[] {
  return core.graph
    .listFlows()
    .filter((f) => personaId === null || f.persona_id === personaId)
    .sort((a, b) => b.last_activity.localeCompare(a.last_activity))
}

function flowNames(core: Core): Map<string, string> {
  return new Map(core.graph.listFlows().map((f) => [f.id, f.name]))
}

function unitView(u: Out<'memory_list_units'>['units'][number], flows: Map<string, string>) {
  return {
    id: u.id,
    kind: u.kind,
    text: u.text,
    occurred_at: u.occurred_at === null ? null : new Date(u.occurred_at * 1000).toISOString(),
    conversation: u.origin_flow_id ? { id: u.origin_flow_id, name: flows.get(u.origin_flow_id) ?? null } : null,
    node_id: u.origin_node_id,
  }
}

/** Settles when the persona's reply to the unit is written (or has failed), or after REPLY_HOLD_MS. */
function replied(core: Core, unitId: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, REPLY_HOLD_MS)
    timer.unref()
    const stop = core.bus.listen((event, data) => {
      if (event === 'external_reply' && (data as { unit_id: number }).unit_id === unitId) done()
    })
    function done() {
      clearTimeout(timer)
      stop()
      resolve()
    }
  })
}
