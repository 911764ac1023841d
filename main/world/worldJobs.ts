import type { JobHandler } from '../jobs/handlers'
import { SUMMARIZE_ITEM, summarizeItem } from './summarizeItemJob'

/** The world's background jobs (item summaries), run by the job worker. */
export const worldJobHandlers: Record<string, JobHandler> = {
  [SUMMARIZE_ITEM]: summarizeItem,
}
