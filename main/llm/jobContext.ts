import type { Persona } from '@shared/contract'
import type { Db } from '../db/open'
import type { JobContext, JobHandler } from '../kernel/jobs/handlers'
import type { LlmRegistry } from './providers'

/** The context of a main-database job that may call a model (graph and world summaries). */
export type LlmJobContext = JobContext & {
  llm: LlmRegistry
  /** The persona a job works for (its model roles), or null: looked up by the persona domain, which owns the table. */
  persona(id: string | null | undefined): Persona | null
  /** A setting as stored (the settings domain reads it), or undefined when it was never set. */
  setting(key: string): unknown
}

export type LlmJobHandler = JobHandler<LlmJobContext>

/**
 * A domain's jobs' context: the worker's, with what the domain built for them (its store over the
 * worker's connection) and `atOnce`, which writes in one immediate transaction.
 */
export type DomainJobContext<Own> = LlmJobContext & Own & { atOnce<T>(write: () => T): T }

/**
 * A domain's job handlers given what the domain built for them. The worker's context itself
 * carries no database, so a job reaches only its own domain's tables, and others' through the
 * services the context offers (`persona`, `setting`).
 */
export function jobHandlersWith<Own extends object>(
  db: Db,
  own: Own,
  handlers: Record<string, JobHandler<DomainJobContext<Own>>>,
): Record<string, LlmJobHandler> {
  const atOnce = <T>(write: () => T): T => db.transaction(write).immediate()
  return Object.fromEntries(
    Object.entries(handlers).map(([kind, handler]) => [kind, (raw, ctx) => handler(raw, { ...ctx, ...own, atOnce })]),
  )
}
