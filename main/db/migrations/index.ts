import type { Migration } from '../migrate'
import { migrate as createSettings } from './0001-create-settings'
import { migrate as createGraph } from './0002-create-graph'
import { migrate as createJobs } from './0003-create-jobs'
import { migrate as addNodeError } from './0004-add-node-error'
import { migrate as createNodeContexts } from './0005-create-node-contexts'
import { migrate as createAi } from './0006-create-ai'
import { migrate as addAiVisionModels } from './0007-add-ai-vision-models'
import { migrate as addAiEmbeddingModel } from './0015-add-ai-embedding-model'
import { migrate as addAiImageModel } from './0016-add-ai-image-model'
import { migrate as createApiTokens } from './0017-create-api-tokens'
import { migrate as addConnectionLabel } from './0018-add-connection-label'
import { migrate as addItemSummary } from './0019-add-item-summary'
import { migrate as createStories } from './0020-create-stories'
import { migrate as addNodeImages } from './0021-add-node-images'
import { migrate as createTokenCalibration } from './0022-create-token-calibration'
import { migrate as addPinnedIndex } from './0023-add-pinned-index'
import { migrate as logConnectionChanges } from './0024-log-connection-changes'
import { migrate as logMemberChanges } from './0025-log-member-changes'
import { migrate as logNodeChanges } from './0026-log-node-changes'
import { migrate as packSentContexts } from './0027-pack-sent-contexts'
import { migrate as createFlowImports } from './0028-create-flow-imports'
import { migrate as shareSentContextParts } from './0029-share-sent-context-parts'
import { migrate as flowListPinNameTrash } from './0030-flow-list-pin-name-trash'
import { migrate as addMemoryPrivate } from './0031-add-memory-private'
import { migrate as createMcpTables } from './0032-create-mcp-tables'
import { migrate as createLorebooks } from './0033-create-lorebooks'
import { migrate as createPersonaAvatars } from './0034-create-persona-avatars'
import { migrate as addFlowCast } from './0035-add-flow-cast'
import { migrate as createMcpCommands } from './0036-create-mcp-commands'
import { migrate as addPlaceIndex } from './0037-add-place-index'
import { migrate as addApiTokenMcpWrites } from './0038-add-api-token-mcp-writes'
import { worldSteps } from './worldSteps'

/** The schema history of `loomverse.db`, oldest first. Append; never edit a shipped step. */
export const appMigrations: readonly Migration[] = [
  { version: 1, name: 'create-settings', up: createSettings },
  { version: 2, name: 'create-graph', up: createGraph },
  { version: 3, name: 'create-jobs', up: createJobs },
  { version: 4, name: 'add-node-error', up: addNodeError },
  { version: 5, name: 'create-node-contexts', up: createNodeContexts },
  { version: 6, name: 'create-ai', up: createAi },
  { version: 7, name: 'add-ai-vision-models', up: addAiVisionModels },
  // The world's steps (buildings, items) are numbered from 8 on in their own list.
  ...worldSteps,
  { version: 15, name: 'add-ai-embedding-model', up: addAiEmbeddingModel },
  { version: 16, name: 'add-ai-image-model', up: addAiImageModel },
  { version: 17, name: 'create-api-tokens', up: createApiTokens },
  { version: 18, name: 'add-connection-label', up: addConnectionLabel },
  { version: 19, name: 'add-item-summary', up: addItemSummary },
  { version: 20, name: 'create-stories', up: createStories },
  { version: 21, name: 'add-node-images', up: addNodeImages },
  { version: 22, name: 'create-token-calibration', up: createTokenCalibration },
  { version: 23, name: 'add-pinned-index', up: addPinnedIndex },
  { version: 24, name: 'log-connection-changes', up: logConnectionChanges },
  { version: 25, name: 'log-member-changes', up: logMemberChanges },
  { version: 26, name: 'log-node-changes', up: logNodeChanges },
  { version: 27, name: 'pack-sent-contexts', up: packSentContexts },
  { version: 28, name: 'create-flow-imports', up: createFlowImports },
  { version: 29, name: 'share-sent-context-parts', up: shareSentContextParts },
  { version: 30, name: 'flow-list-pin-name-trash', up: flowListPinNameTrash },
  { version: 31, name: 'add-memory-private', up: addMemoryPrivate },
  { version: 32, name: 'create-mcp-tables', up: createMcpTables },
  { version: 33, name: 'create-lorebooks', up: createLorebooks },
  { version: 34, name: 'create-persona-avatars', up: createPersonaAvatars },
  { version: 35, name: 'add-flow-cast', up: addFlowCast },
  { version: 36, name: 'create-mcp-commands', up: createMcpCommands },
  { version: 37, name: 'add-place-index', up: addPlaceIndex },
  { version: 38, name: 'add-api-token-mcp-writes', up: addApiTokenMcpWrites },
]
