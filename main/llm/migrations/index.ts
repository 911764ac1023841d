import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createTokenCalibration } from './0001-create-token-calibration'

/**
 * llm's tables in the app database: what the token counts of each model turned out to be (`token_calibration`). Oldest first; append, never edit a shipped
 * step. `legacy` is a step's number in the one list of earlier releases (a new step has none).
 */
export const llmSchema: DomainSchema = {
  domain: 'llm',
  needs: [],
  migrations: [{ version: 1, name: 'create-token-calibration', up: createTokenCalibration, legacy: 22 }],
}
