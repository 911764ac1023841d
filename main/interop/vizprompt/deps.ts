import type { Db } from '../../db/open'
import type { GraphService } from '../../graph/graphService'
import type { EventBus } from '../../kernel/events'

/** What import and export need from a running core; `startCore`'s Core fits as it is. */
export interface VizpromptDeps {
  graph: GraphService
  /** The graph's database: an export reads in one transaction (an import writes through `graph.imports`). */
  db: Db
  /** When given, an import tells open windows about the flows and nodes it wrote. */
  bus?: EventBus
}
