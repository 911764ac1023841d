import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createTokenCalibration } from './0001-create-token-calibration'

/**
 * What each model's token counts turned out to be (`token_calibration`). Append a step; never edit
 * a shipped one.
 */
export const llmSchema: DomainSchema = {
  domain: 'llm',
  needs: [],
  migrations: numbered([createTokenCalibration]),
}
