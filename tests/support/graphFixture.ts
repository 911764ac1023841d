import { afterEach, expect, vi } from 'vitest'
import type { EventName, FlowGraph } from '@shared/contract'
import { AppError, type ErrorCode } from '@shared/errors'
import { appSchema } from '../../main/appSchema'
import { openDatabase, type Db } from '../../main/db/open'
import { EventBus } from '../../main/kernel/events'
import { GraphService } from '../../main/graph/graphService'

// Shared setup for the main/graph tests: a real migrated SQLite database in memory, the
// real service, and every event it emits (already checked against the contract by EventBus).

export interface GraphFixture {
  db: Db
  graph: GraphService
  events: Array<{ event: EventName; data: unknown }>
  /** A new flow's id. */
  flow(name?: string): string
  /** A new node's id; each one stamped a second after the previous. */
  add(flowId: string, prompt: string, parents?: string[], fields?: { response?: string; tags?: string[] }): string
  /** Nodes added one after another, each the child of the previous; returns their ids. */
  chain(flowId: string, ...prompts: string[]): string[]
  /**
   * Puts an existing node into another flow too, straight into the store as an import would
   * (no undo entry; `addToFlow` is the service's way).
   */
  share(nodeId: string, flowId: string, position?: { x: number; y: number }): void
  /** As if the summary job had just run: the node's summary (every node's when none is named) is built and fresh. */
  summarise(nodeId?: string, text?: string): void
  /** Once the flows edited so far have been announced (`flow_changed` follows the work of a turn of the event loop). */
  settled(): Promise<void>
}

/** A fresh graph per test, closed afterwards. The clock is fake so timestamps are distinct and ordered. */
export function useGraph(): () => GraphFixture {
  let current: GraphFixture | null = null
  afterEach(() => {
    current?.db.close()
    current = null
    vi.useRealTimers()
  })
  return () => (current ??= openGraph())
}

function openGraph(): GraphFixture {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-05-09T06:48:06.000Z') })
  const { db } = openDatabase(':memory:', { domains: appSchema, label: 'test.db' })
  const bus = new EventBus()
  const graph = new GraphService(db, bus)
  const events: GraphFixture['events'] = []
  bus.listen((event, data) => events.push({ event, data }))
  const add: GraphFixture['add'] = (flowId, prompt, parents = [], fields = {}) => {
    vi.advanceTimersByTime(1000)
    return graph.createNode({ flow_id: flowId, prompt, parent_ids: parents, ...fields }).id
  }
  return {
    db,
    graph,
    events,
    flow: (name = 'flow') => graph.createFlow({ name }).id,
    add,
    chain: (flowId, ...prompts) => {
      const ids: string[] = []
      for (const prompt of prompts) ids.push(add(flowId, prompt, ids.slice(-1)))
      return ids
    },
    share: (nodeId, flowId, position) => void graph.store.addMember(flowId, nodeId, position ?? null),
    summarise: (nodeId, text = 'built') =>
      void db
        .prepare('UPDATE nodes SET summary_text = ?, summary_updated = 0 WHERE ? IS NULL OR id = ?')
        .run(text, nodeId ?? null, nodeId ?? null),
    settled: () => new Promise((resolve) => setImmediate(resolve)),
  }
}

/** The error code `fn` throws (failing the test when it does not throw an AppError). */
export function errorCode(fn: () => unknown): ErrorCode {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return (e as AppError).code
  }
  throw new Error('expected an AppError, nothing was thrown')
}

/** What the canvas shows of a flow, minus the `updated` time that every edit (and undo) moves. */
export function canvas(graph: GraphService, flowId: string): FlowGraph {
  const loaded = graph.loadFlow(flowId)
  return { ...loaded, flow: { ...loaded.flow, updated: '' } }
}

/** The flow's edges as "from>to" strings in a stable order, named by a lookup of ids. */
export function edges(graph: GraphService, flowId: string, names: Record<string, string> = {}): string[] {
  const name = (id: string) => Object.entries(names).find(([, v]) => v === id)?.[0] ?? id
  return graph
    .getFlow(flowId)
    .connections.map((c) => `${name(c.from)}>${name(c.to)}`)
    .sort()
}
