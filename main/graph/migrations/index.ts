import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createGraph } from './0001-create-graph'
import { migrate as addNodeError } from './0002-add-node-error'
import { migrate as createNodeContexts } from './0003-create-node-contexts'
import { migrate as addConnectionLabel } from './0004-add-connection-label'
import { migrate as addNodeImages } from './0005-add-node-images'
import { migrate as addPinnedIndex } from './0006-add-pinned-index'
import { migrate as logConnectionChanges } from './0007-log-connection-changes'
import { migrate as logMemberChanges } from './0008-log-member-changes'
import { migrate as logNodeChanges } from './0009-log-node-changes'
import { migrate as packSentContexts } from './0010-pack-sent-contexts'
import { migrate as createFlowImports } from './0011-create-flow-imports'
import { migrate as shareSentContextParts } from './0012-share-sent-context-parts'
import { migrate as flowListPinNameTrash } from './0013-flow-list-pin-name-trash'
import { migrate as addMemoryPrivate } from './0014-add-memory-private'
import { migrate as addFlowCast } from './0015-add-flow-cast'
import { migrate as addPlaceIndex } from './0016-add-place-index'

/**
 * The conversation graph: flows, nodes, connections, tags, their change logs and the contexts
 * sent. Append a step; never edit a shipped one.
 */
export const graphSchema: DomainSchema = {
  domain: 'graph',
  needs: [],
  migrations: [
    { version: 1, name: 'create-graph', up: createGraph, legacy: 2 },
    { version: 2, name: 'add-node-error', up: addNodeError, legacy: 4 },
    { version: 3, name: 'create-node-contexts', up: createNodeContexts, legacy: 5 },
    { version: 4, name: 'add-connection-label', up: addConnectionLabel, legacy: 18 },
    { version: 5, name: 'add-node-images', up: addNodeImages, legacy: 21 },
    { version: 6, name: 'add-pinned-index', up: addPinnedIndex, legacy: 23 },
    { version: 7, name: 'log-connection-changes', up: logConnectionChanges, legacy: 24 },
    { version: 8, name: 'log-member-changes', up: logMemberChanges, legacy: 25 },
    { version: 9, name: 'log-node-changes', up: logNodeChanges, legacy: 26 },
    { version: 10, name: 'pack-sent-contexts', up: packSentContexts, legacy: 27 },
    { version: 11, name: 'create-flow-imports', up: createFlowImports, legacy: 28 },
    { version: 12, name: 'share-sent-context-parts', up: shareSentContextParts, legacy: 29 },
    { version: 13, name: 'flow-list-pin-name-trash', up: flowListPinNameTrash, legacy: 30 },
    { version: 14, name: 'add-memory-private', up: addMemoryPrivate, legacy: 31 },
    { version: 15, name: 'add-flow-cast', up: addFlowCast, legacy: 35 },
    { version: 16, name: 'add-place-index', up: addPlaceIndex, legacy: 37 },
  ],
}
