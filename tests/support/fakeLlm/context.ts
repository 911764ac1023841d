// What every route handler gets: the exchange, the rules, and the server's configuration.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { sameModel } from './models'
import type { PictureLinks } from './pictures'
import type { RuleBook } from './scripts'
import type { Provider } from './types'

export interface Config {
  openaiKey: string
  geminiKey: string
  models: Record<Provider, string[]>
  embeddingDimensions: number
  /** Word groups whose texts embed near each other (`FakeLlm.meaning`). */
  meanings: string[][]
}

export interface Context {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  body: unknown
  /** Aborted when the client goes away or the server closes; every wait listens to it. */
  signal: AbortSignal
  rules: RuleBook
  config: Config
  /** Ids unique within one fake (`call_fake_1`, …), restarting at reset, so tests see stable values. */
  nextId: (prefix: string) => string
  /** Pictures answered as links, served back by the fake itself. */
  links: PictureLinks
}

/** Configured models first, then any a rule names. */
export function knownModels(ctx: Context, provider: Provider): string[] {
  const names = [...ctx.config.models[provider]]
  for (const model of ctx.rules.scriptedModels(provider)) {
    if (!names.some((known) => sameModel(provider, known, model))) names.push(model)
  }
  return names
}

export function isKnownModel(ctx: Context, provider: Provider, model: string): boolean {
  return knownModels(ctx, provider).some((known) => sameModel(provider, known, model))
}

/** A JSON object body as a record; anything else as an empty one (routes then report what is missing). */
export function bodyObject(ctx: Context): Record<string, unknown> {
  const body = ctx.body
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
}
