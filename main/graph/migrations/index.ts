import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createGraph } from './0001-create-graph'
import { step as addNodeError } from './0002-add-node-error'
import { step as createNodeContexts } from './0003-create-node-contexts'
import { step as addConnectionLabel } from './0004-add-connection-label'
import { step as addNodeImages } from './0005-add-node-images'
import { step as addPinnedIndex } from './0006-add-pinned-index'
import { step as logConnectionChanges } from './0007-log-connection-changes'
import { step as logMemberChanges } from './0008-log-member-changes'
import { step as logNodeChanges } from './0009-log-node-changes'
import { step as packSentContexts } from './0010-pack-sent-contexts'
import { step as createFlowImports } from './0011-create-flow-imports'
import { step as shareSentContextParts } from './0012-share-sent-context-parts'
import { step as flowListPinNameTrash } from './0013-flow-list-pin-name-trash'
import { step as addMemoryPrivate } from './0014-add-memory-private'
import { step as addFlowCast } from './0015-add-flow-cast'
import { step as addPlaceIndex } from './0016-add-place-index'
import { step as addRootAlternatives } from './0017-add-root-alternatives'
import { step as logRootAlternatives } from './0018-log-root-alternatives'

/**
 * The conversation graph: flows, nodes, connections, tags, their change logs and the contexts
 * sent. Append a step; never edit a shipped one.
 */
export const graphSchema: DomainSchema = {
  domain: 'graph',
  needs: [],
  migrations: numbered([
    createGraph,
    addNodeError,
    createNodeContexts,
    addConnectionLabel,
    addNodeImages,
    addPinnedIndex,
    logConnectionChanges,
    logMemberChanges,
    logNodeChanges,
    packSentContexts,
    createFlowImports,
    shareSentContextParts,
    flowListPinNameTrash,
    addMemoryPrivate,
    addFlowCast,
    addPlaceIndex,
    addRootAlternatives,
    logRootAlternatives,
  ]),
}
