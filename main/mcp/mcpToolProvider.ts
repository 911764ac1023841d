import { randomUUID } from 'node:crypto'
import type { McpToolCall } from '@shared/contract'
import { AppError, toErrorValue } from '@shared/errors'
import type { ChatToolContext, ChatToolOutcome, ChatToolProvider } from '../chat/chatService'
import type { EventBus } from '../kernel/events'
import type { ToolCall, ToolSpec } from '../llm/types'
import { keepResult } from './mcpResult'
import type { McpServers } from './mcpServers'
import type { McpTool } from './mcpTransport'
import type { McpStore } from './mcpStore'

export type Approval = 'once' | 'always' | 'deny'

export interface McpToolOptions {
  servers: McpServers
  store: McpStore
  bus: EventBus
  /** How long one call may run before it is given up. */
  callTimeoutMs?: number
  /** How long offering tools waits for a server to start; a slower one is left out of this reply. */
  offerWaitMs?: number
  /** How long a call waits for the user's answer (no window may be open: a reply asked for over the API). */
  approvalWaitMs?: number
}

/** `server__tool`, the name the model sees: providers take [A-Za-z0-9_-] up to 64 characters. */
const SEPARATOR = '__'

/**
 * MCP tools in the chat's tool loop. The servers offered are the conversation's choice, else
 * the persona's, else every enabled one. Every call waits for the user (allow once, always for
 * this persona, deny) unless the tool is always allowed; the call and its result are kept on
 * the node, and a denial or failure goes back to the model as an error it can read.
 */
export class McpToolProvider implements ChatToolProvider {
  private readonly waiting = new Map<string, (answer: Approval) => void>()

  constructor(private readonly options: McpToolOptions) {}

  /** Servers whose tools the reply may use. */
  serversFor(ctx: Pick<ChatToolContext, 'personaId' | 'flowId'>): string[] {
    const { store, servers } = this.options
    const enabled = servers
      .list()
      .servers.filter((s) => s.status !== 'disabled')
      .map((s) => s.name)
    // No server to offer (most set-ups): the choices are not read, on every turn's way to its request.
    if (enabled.length === 0) return enabled
    const persona = ctx.personaId ?? ''
    const chosen = store.access(persona, ctx.flowId) ?? store.access(persona)
    return chosen === null ? enabled : enabled.filter((n) => chosen.includes(n))
  }

  /** What the next reply would be offered, from the servers already started; none is started for it. */
  offered(ctx: Pick<ChatToolContext, 'personaId' | 'flowId'>): ToolSpec[] {
    return this.offeredNow(ctx).specs
  }

  /** The same, naming the servers whose tools are not known yet (not started). */
  offeredNow(ctx: Pick<ChatToolContext, 'personaId' | 'flowId'>): { specs: ToolSpec[]; notStarted: string[] } {
    const specs: ToolSpec[] = []
    const notStarted: string[] = []
    for (const server of this.serversFor(ctx)) {
      const info = this.options.servers.info(server)
      if (info.status !== 'connected') notStarted.push(server)
      for (const t of this.options.servers.toolsOf(server)) specs.push(toolSpec(server, t))
    }
    return { specs, notStarted }
  }

  async tools(ctx: ChatToolContext): Promise<ToolSpec[]> {
    const names = this.serversFor(ctx)
    const wait = this.options.offerWaitMs ?? 15_000
    const lists = await Promise.all(
      names.map(async (server) => {
        try {
          const conn = await withTimeout(this.options.servers.connection(server), wait)
          return conn.tools.map((t) => toolSpec(server, t))
        } catch {
          return [] // its failure is in its status (Settings → Tools); the reply goes on without it
        }
      }),
    )
    return lists.flat()
  }

  async execute(call: ToolCall, ctx: ChatToolContext): Promise<ChatToolOutcome | null> {
    const target = this.resolve(call.name, ctx)
    if (!target) return null
    const record: McpToolCall = {
      id: randomUUID(),
      node_id: ctx.nodeId,
      server: target.server,
      tool: target.tool,
      arguments: call.arguments || '{}',
      state: 'waiting',
      content: [],
      note: null,
      created: new Date().toISOString(),
    }
    const update = (patch: Partial<McpToolCall>) => {
      Object.assign(record, patch)
      this.options.store.saveCall(record, ctx.flowId)
      this.options.bus.emit('mcp_call_updated', { ...record })
    }
    let args: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(record.arguments)
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
      args = parsed as Record<string, unknown>
    } catch {
      update({ state: 'failed', note: 'the arguments were not a JSON object' })
      return { content: 'error: the arguments must be a JSON object', isError: true, kept: true }
    }
    const persona = ctx.personaId ?? ''
    if (!this.options.store.isGranted(persona, target.server, target.tool)) {
      update({ state: 'waiting' })
      const answer = await this.approval(record.id, ctx.signal)
      if (answer !== 'once' && answer !== 'always') {
        const note = {
          deny: 'denied by the user',
          stopped: 'stopped before it was answered',
          unanswered: 'nobody answered in time',
        }[answer]
        update({ state: 'denied', note })
        const told = answer === 'unanswered' ? 'the user did not answer in time' : 'the user denied this tool call'
        return { content: `error: ${told}`, isError: true, kept: true }
      }
      if (answer === 'always') this.options.store.grant(persona, target.server, target.tool)
    }
    update({ state: 'running' })
    try {
      const raw = await this.options.servers.callTool(target.server, target.tool, args, {
        signal: ctx.signal,
        timeoutMs: this.options.callTimeoutMs ?? 120_000,
      })
      const kept = keepResult(raw)
      update({ state: raw.isError ? 'failed' : 'done', content: kept.content, note: kept.note })
      return {
        content: raw.isError ? `error: ${kept.text}` : kept.text,
        isError: raw.isError === true,
        kept: true,
        ...(kept.images.length > 0 ? { images: kept.images } : {}),
      }
    } catch (e) {
      const message = ctx.signal.aborted ? 'stopped' : toErrorValue(e).message
      update({ state: 'failed', note: message })
      return { content: `error: the tool failed: ${message}`, isError: true, kept: true }
    }
  }

  /** The user's answer to a waiting call; false when none is waiting under that id. */
  answer(callId: string, answer: Approval): boolean {
    const resolve = this.waiting.get(callId)
    if (!resolve) return false
    resolve(answer)
    return true
  }

  private approval(callId: string, signal: AbortSignal): Promise<Approval | 'stopped' | 'unanswered'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done('unanswered'), this.options.approvalWaitMs ?? 10 * 60_000)
      const done = (answer: Approval | 'stopped' | 'unanswered') => {
        clearTimeout(timer)
        this.waiting.delete(callId)
        signal.removeEventListener('abort', onAbort)
        resolve(answer)
      }
      const onAbort = () => done('stopped')
      if (signal.aborted) return done('stopped')
      signal.addEventListener('abort', onAbort)
      this.waiting.set(callId, done)
    })
  }

  /** The server and tool a model's tool name stands for, among those this reply was offered. */
  private resolve(name: string, ctx: ChatToolContext): { server: string; tool: string } | null {
    const at = name.indexOf(SEPARATOR)
    if (at < 1) return null
    const server = name.slice(0, at)
    if (!this.serversFor(ctx).includes(server)) return null
    let tools
    try {
      tools = this.options.servers.info(server).tools
    } catch {
      return null
    }
    const tool = tools.find((t) => toolName(server, t.name) === name)
    return tool ? { server, tool: tool.name } : null
  }
}

function toolSpec(server: string, t: McpTool): ToolSpec {
  return {
    name: toolName(server, t.name),
    description: `[${server}] ${t.description}`.slice(0, 1024),
    parameters: t.inputSchema,
  }
}

export function toolName(server: string, tool: string): string {
  return `${server}${SEPARATOR}${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64)
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new AppError('unavailable', 'the server took too long to start')), ms)
    timer.unref()
    promise.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e: unknown) => {
        clearTimeout(timer)
        reject(e instanceof Error ? e : new Error(String(e)))
      },
    )
  })
}
