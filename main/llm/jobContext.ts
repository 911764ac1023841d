import type { JobContext, JobHandler } from '../kernel/jobs/handlers'
import type { LlmRegistry } from './providers'

/** The context of a main-database job that may call a model (graph and world summaries). */
export type LlmJobContext = JobContext & { llm: LlmRegistry }

export type LlmJobHandler = JobHandler<LlmJobContext>
