import type { Migration } from '../../db/migrate'
import { migrate as createMemory } from './0001-create-memory'
import { migrate as vectorLog } from './0002-vector-log'
import { migrate as modelVectors } from './0003-model-vectors'
import { migrate as memorySpend } from './0004-memory-spend'
import { migrate as wordIndex } from './0005-word-index'
import { migrate as modelVectorLog } from './0006-model-vector-log'
import { migrate as embedTurnsInContext } from './0007-embed-turns-in-context'
import { migrate as episodesByTime } from './0008-episodes-by-time'
import { migrate as logUnitChanges } from './0009-log-unit-changes'
import { migrate as sentenceVectors } from './0010-sentence-vectors'
import { migrate as externalRequests } from './0011-external-requests'

/** The schema history of every `memory_<persona>.db`, oldest first. Append; never edit a shipped step. */
export const memoryMigrations: readonly Migration[] = [
  { version: 1, name: 'create-memory', up: createMemory },
  { version: 2, name: 'vector-log', up: vectorLog },
  { version: 3, name: 'model-vectors', up: modelVectors },
  { version: 4, name: 'memory-spend', up: memorySpend },
  { version: 5, name: 'word-index', up: wordIndex },
  { version: 6, name: 'model-vector-log', up: modelVectorLog },
  { version: 7, name: 'embed-turns-in-context', up: embedTurnsInContext },
  { version: 8, name: 'episodes-by-time', up: episodesByTime },
  { version: 9, name: 'log-unit-changes', up: logUnitChanges },
  { version: 10, name: 'sentence-vectors', up: sentenceVectors },
  { version: 11, name: 'external-requests', up: externalRequests },
]
