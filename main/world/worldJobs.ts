import type { Db } from '../db/open'
import { jobHandlersWith, type LlmJobHandler } from '../llm/jobContext'
import { SUMMARIZE_ITEM, summarizeItem } from './summarizeItemJob'
import { WorldStore } from './worldStore'

/** The world's background jobs (item summaries), run by the job worker over its own connection. */
export function worldJobHandlers(db: Db): Record<string, LlmJobHandler> {
  return jobHandlersWith(db, { store: new WorldStore(db) }, { [SUMMARIZE_ITEM]: summarizeItem })
}
