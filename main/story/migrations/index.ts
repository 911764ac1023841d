import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createStories } from './0001-create-stories'

/**
 * story's tables in the app database: story mode (NovelADV seed): stories, their summaries, saves and character sheets. Oldest first; append, never edit a shipped
 * step. `legacy` is a step's number in the one list of earlier releases (a new step has none).
 */
export const storySchema: DomainSchema = {
  domain: 'story',
  needs: [],
  migrations: [{ version: 1, name: 'create-stories', up: createStories, legacy: 20 }],
}
