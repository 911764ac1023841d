import { numbered, type Migration } from '../../db/migrate'
import { step as createMemory } from './0001-create-memory'
import { step as vectorLog } from './0002-vector-log'
import { step as modelVectors } from './0003-model-vectors'
import { step as memorySpend } from './0004-memory-spend'
import { step as wordIndex } from './0005-word-index'
import { step as modelVectorLog } from './0006-model-vector-log'
import { step as embedTurnsInContext } from './0007-embed-turns-in-context'
import { step as episodesByTime } from './0008-episodes-by-time'
import { step as logUnitChanges } from './0009-log-unit-changes'
import { step as sentenceVectors } from './0010-sentence-vectors'
import { step as externalRequests } from './0011-external-requests'

/** The schema history of every `memory_<persona>.db`, oldest first. Append; never edit a shipped step. */
export const memoryMigrations: readonly Migration[] = numbered([
  createMemory,
  vectorLog,
  modelVectors,
  memorySpend,
  wordIndex,
  modelVectorLog,
  embedTurnsInContext,
  episodesByTime,
  logUnitChanges,
  sentenceVectors,
  externalRequests,
])
