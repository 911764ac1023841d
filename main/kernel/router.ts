import type { z } from 'zod'
import { contract, isMethod, type Method, type Out, type Parsed } from '@shared/contract'
import { toErrorValue, type Result } from '@shared/errors'

/** Who is calling; handlers may use it for logging or per-window behaviour. */
export interface CallContext {
  /** `http`: a program with an API token, through the local HTTP API. */
  transport: 'ipc' | 'ws' | 'http' | 'internal'
  /**
   * Told a chat message's first streamed text before anything else is done with it (its node is
   * written next, then the text goes out as `node_stream`): a caller that streams the text on
   * itself (the HTTP API's /api/chat) sends it without waiting for the node's write.
   */
  firstText?: (text: string) => void
}

/**
 * The one trust rule for paths: the command line runs in the user's own shell and may name any
 * file or folder; a window or a script on the WebSocket names only what lies in the data
 * folder's imports/ (to read) or exports/ (to write).
 */
export function callerNamesAnyPath(ctx: CallContext): boolean {
  return ctx.transport === 'internal'
}

export type Handler<M extends Method> = (input: Parsed<M>, ctx: CallContext) => Out<M> | Promise<Out<M>>

/** One handler for every method of the contract: a missing one is a type error. */
export type Handlers = { [M in Method]: Handler<M> }

/** One domain's handlers: exactly the methods of its part of the contract (`typeof graphMethods`). */
export type HandlerModule<Specs> = Pick<Handlers, keyof Specs & Method>

/**
 * The one place the domains' handler modules become the router's map. A method answered by two
 * modules, or by none, is a wiring bug: refused at start-up with the names, never settled by
 * whichever spread came last.
 */
export function combineHandlers(modules: Record<string, Partial<Handlers>>): Handlers {
  const combined: Record<string, unknown> = {}
  const owner = new Map<string, string>()
  for (const [domain, handlers] of Object.entries(modules)) {
    for (const [method, handler] of Object.entries(handlers)) {
      const other = owner.get(method)
      if (other) throw new Error(`"${method}" is answered by both the ${other} and the ${domain} handlers`)
      owner.set(method, domain)
      combined[method] = handler
    }
  }
  const missing = Object.keys(contract).filter((m) => !owner.has(m))
  if (missing.length > 0) throw new Error(`no handler for ${missing.join(', ')}`)
  const unknown = [...owner.keys()].filter((m) => !isMethod(m))
  if (unknown.length > 0) throw new Error(`handlers for methods the contract does not have: ${unknown.join(', ')}`)
  return combined as Handlers
}

export interface Router {
  /** Never throws: every outcome, including a crashing handler, is a `Result` value. */
  call(method: string, input: unknown, ctx: CallContext): Promise<Result<unknown>>
}

export interface RouterOptions {
  /**
   * Validate what handlers return against the contract too. On in development and tests,
   * where a wrong shape is a bug to catch early; off in production, where it costs time
   * on every call and the types already hold.
   */
  checkOutput?: boolean
  onError?: (method: string, error: unknown) => void
}

export function createRouter(handlers: Handlers, options: RouterOptions = {}): Router {
  return {
    async call(method, raw, ctx) {
      if (!isMethod(method)) {
        return { ok: false, error: { code: 'unknown_method', message: `unknown method "${method}"` } }
      }
      const spec = contract[method]
      const parsed = spec.input.safeParse(raw ?? {})
      if (!parsed.success) {
        return { ok: false, error: { code: 'bad_input', message: describeIssues(method, parsed.error) } }
      }
      try {
        const handler = handlers[method] as Handler<Method>
        const value: unknown = await handler(parsed.data as Parsed<Method>, ctx)
        if (options.checkOutput) {
          const checked = spec.output.safeParse(value)
          if (!checked.success) {
            throw new Error(`${method} returned a bad shape: ${describeIssues(method, checked.error)}`)
          }
        }
        return { ok: true, value }
      } catch (e) {
        const error = toErrorValue(e)
        if (error.code === 'internal') options.onError?.(method, e)
        return { ok: false, error }
      }
    },
  }
}

/** "update_settings: theme: Invalid option…; language: …" — the zod path first, so a user sees what was wrong. */
export function describeIssues(method: string, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)'
    return `${path}: ${issue.message}`
  })
  return `${method}: ${parts.join('; ')}`
}
