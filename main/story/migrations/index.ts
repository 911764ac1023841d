import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createStories } from './0001-create-stories'

/**
 * Story mode (NovelADV): stories, their summaries, saves and character sheets. Append a step;
 * never edit a shipped one.
 */
export const storySchema: DomainSchema = {
  domain: 'story',
  needs: [],
  migrations: numbered([createStories]),
}
