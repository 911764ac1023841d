import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createStories } from './0001-create-stories'

/**
 * Story mode (NovelADV): stories, their summaries, saves and character sheets. Append a step;
 * never edit a shipped one.
 */
export const storySchema: DomainSchema = {
  domain: 'story',
  needs: [],
  migrations: [{ version: 1, name: 'create-stories', up: createStories, legacy: 20 }],
}
