import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createWorld } from './0001-create-world'
import { migrate as addItemFilePath } from './0002-add-item-file-path'
import { migrate as createUserLocation } from './0003-create-user-location'
import { migrate as addItemSummaryStatus } from './0004-add-item-summary-status'
import { migrate as createDocumentVersions } from './0005-create-document-versions'
import { migrate as createNodeToolCalls } from './0006-create-node-tool-calls'
import { migrate as addItemSummary } from './0007-add-item-summary'

/**
 * The world (SAIVerse): buildings, items and where they are, documents' versions, and the tool
 * calls a node made (on graph's nodes, so world `needs` graph). Append a step; never edit a
 * shipped one.
 */
export const worldSchema: DomainSchema = {
  domain: 'world',
  needs: ['graph'],
  migrations: [
    { version: 1, name: 'create-world', up: createWorld, legacy: 8 },
    { version: 2, name: 'add-item-file-path', up: addItemFilePath, legacy: 9 },
    { version: 3, name: 'create-user-location', up: createUserLocation, legacy: 11 },
    { version: 4, name: 'add-item-summary-status', up: addItemSummaryStatus, legacy: 12 },
    { version: 5, name: 'create-document-versions', up: createDocumentVersions, legacy: 13 },
    { version: 6, name: 'create-node-tool-calls', up: createNodeToolCalls, legacy: 14 },
    { version: 7, name: 'add-item-summary', up: addItemSummary, legacy: 19 },
  ],
}
