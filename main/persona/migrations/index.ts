import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createAi } from './0001-create-ai'
import { step as addAiVisionModels } from './0002-add-ai-vision-models'
import { step as addAiCurrentBuilding } from './0003-add-ai-current-building'
import { step as addAiEmbeddingModel } from './0004-add-ai-embedding-model'
import { step as addAiImageModel } from './0005-add-ai-image-model'
import { step as addMemoryPrivate } from './0006-add-memory-private'
import { step as createPersonaAvatars } from './0007-create-persona-avatars'

/** The personas (`ai`, as in SAIVerse) and their avatars. Append a step; never edit a shipped one. */
export const personaSchema: DomainSchema = {
  domain: 'persona',
  needs: [],
  migrations: numbered([
    createAi,
    addAiVisionModels,
    addAiCurrentBuilding,
    addAiEmbeddingModel,
    addAiImageModel,
    addMemoryPrivate,
    createPersonaAvatars,
  ]),
}
