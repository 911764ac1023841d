import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createAi } from './0001-create-ai'
import { migrate as addAiVisionModels } from './0002-add-ai-vision-models'
import { migrate as addAiCurrentBuilding } from './0003-add-ai-current-building'
import { migrate as addAiEmbeddingModel } from './0004-add-ai-embedding-model'
import { migrate as addAiImageModel } from './0005-add-ai-image-model'
import { migrate as addMemoryPrivate } from './0006-add-memory-private'
import { migrate as createPersonaAvatars } from './0007-create-persona-avatars'

/** The personas (`ai`, as in SAIVerse) and their avatars. Append a step; never edit a shipped one. */
export const personaSchema: DomainSchema = {
  domain: 'persona',
  needs: [],
  migrations: [
    { version: 1, name: 'create-ai', up: createAi, legacy: 6 },
    { version: 2, name: 'add-ai-vision-models', up: addAiVisionModels, legacy: 7 },
    { version: 3, name: 'add-ai-current-building', up: addAiCurrentBuilding, legacy: 10 },
    { version: 4, name: 'add-ai-embedding-model', up: addAiEmbeddingModel, legacy: 15 },
    { version: 5, name: 'add-ai-image-model', up: addAiImageModel, legacy: 16 },
    { version: 6, name: 'add-memory-private', up: addMemoryPrivate, legacy: 31 },
    { version: 7, name: 'create-persona-avatars', up: createPersonaAvatars, legacy: 34 },
  ],
}
