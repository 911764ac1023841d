import type { LlmJobHandler } from '../llm/jobContext'
import { SUMMARIZE_ITEM, summarizeItem } from './summarizeItemJob'

/** The world's background jobs (item summaries), run by the job worker. */
export const worldJobHandlers: Record<string, LlmJobHandler> = {
  [SUMMARIZE_ITEM]: summarizeItem,
}
