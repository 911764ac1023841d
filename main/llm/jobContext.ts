import type { Persona } from '@shared/contract'
import type { JobContext, JobHandler } from '../kernel/jobs/handlers'
import type { LlmRegistry } from './providers'

/** The context of a main-database job that may call a model (graph and world summaries). */
export type LlmJobContext = JobContext & {
  llm: LlmRegistry
  /** The persona a job works for (its model roles), or null: looked up by the persona domain, which owns the table. */
  persona(id: string | null | undefined): Persona | null
}

export type LlmJobHandler = JobHandler<LlmJobContext>
