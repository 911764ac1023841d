import type { DomainSchema } from './db/domainMigrations'
import { accessSchema } from './access/migrations'
import { graphSchema } from './graph/migrations'
import { kernelSchema } from './kernel/migrations'
import { llmSchema } from './llm/migrations'
import { lorebookSchema } from './lorebook/migrations'
import { mcpSchema } from './mcp/migrations'
import { personaSchema } from './persona/migrations'
import { settingsSchema } from './settings/migrations'
import { storySchema } from './story/migrations'
import { worldSchema } from './world/migrations'

/**
 * The tables of `loomverse.db`, each domain's made by its own migrations and versioned on its
 * own (`schema_versions`). The order is the one they migrate in: a domain whose tables refer to
 * another's comes after it (world's tool calls name graph's nodes), and openDatabase refuses a
 * list that breaks what a domain `needs`. A new domain is appended; memory's tables live in
 * each persona's own database (memory/migrations).
 */
export const appSchema: readonly DomainSchema[] = [
  kernelSchema,
  settingsSchema,
  personaSchema,
  graphSchema,
  worldSchema,
  llmSchema,
  accessSchema,
  storySchema,
  mcpSchema,
  lorebookSchema,
]
