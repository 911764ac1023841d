import type { Migration } from '../migrate'
import { migrate as createWorld } from './0008-create-world'
import { migrate as addItemFilePath } from './0009-add-item-file-path'
import { migrate as addAiCurrentBuilding } from './0010-add-ai-current-building'
import { migrate as createUserLocation } from './0011-create-user-location'
import { migrate as addItemSummaryStatus } from './0012-add-item-summary-status'
import { migrate as createDocumentVersions } from './0013-create-document-versions'
import { migrate as createNodeToolCalls } from './0014-create-node-tool-calls'

/** The world's schema steps (SAIVERSE seed), versions 8, 9, … in order. Append; never edit a shipped step. */
export const worldSteps: readonly Migration[] = [
  { version: 8, name: 'create-world', up: createWorld },
  { version: 9, name: 'add-item-file-path', up: addItemFilePath },
  { version: 10, name: 'add-ai-current-building', up: addAiCurrentBuilding },
  { version: 11, name: 'create-user-location', up: createUserLocation },
  { version: 12, name: 'add-item-summary-status', up: addItemSummaryStatus },
  { version: 13, name: 'create-document-versions', up: createDocumentVersions },
  { version: 14, name: 'create-node-tool-calls', up: createNodeToolCalls },
]
