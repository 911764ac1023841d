import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createWorld } from './0001-create-world'
import { step as addItemFilePath } from './0002-add-item-file-path'
import { step as createUserLocation } from './0003-create-user-location'
import { step as addItemSummaryStatus } from './0004-add-item-summary-status'
import { step as createDocumentVersions } from './0005-create-document-versions'
import { step as createNodeToolCalls } from './0006-create-node-tool-calls'
import { step as addItemSummary } from './0007-add-item-summary'

/**
 * The world (SAIVerse): buildings, items and where they are, documents' versions, and the tool
 * calls a node made (on graph's nodes, so world `needs` graph). Append a step; never edit a
 * shipped one.
 */
export const worldSchema: DomainSchema = {
  domain: 'world',
  needs: ['graph'],
  migrations: numbered([
    createWorld,
    addItemFilePath,
    createUserLocation,
    addItemSummaryStatus,
    createDocumentVersions,
    createNodeToolCalls,
    addItemSummary,
  ]),
}
