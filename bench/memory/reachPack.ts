// The MemoryPack for a node of one conversation when the persona's episodes lie in many: the
// cross-conversation rule (main/memory/pack/reach.ts) beside the same packs with no rule, in one run.
import { join } from 'node:path'
import { appSchema } from '../../main/appSchema'
import { openDatabase } from '../../main/db/open'
import { GraphService, type PathMembers } from '../../main/graph/graphService'
import { EventBus } from '../../main/kernel/events'
import { UnitKind } from '../../main/memory/store/enums'
import { reachOf } from '../../main/memory/pack/reach'
import { buildPack } from '../../main/memory/pack/packBuilder'
import type { MemoryStore } from '../../main/memory/store/store'

/** Conversations, and turns in each: a main line with a side branch every ten turns. */
const CONVERSATIONS = 100
const TURNS = 40
const SIDE_EVERY = 10
const SIDE_TURNS = 5

export function reachPacks(
  store: MemoryStore,
  dir: string,
  queries: string[],
  units: number,
  print: (o: Record<string, unknown>) => void,
  pct: (samples: number[], p: number) => number,
): void {
  const { db } = openDatabase(join(dir, 'loomverse.db'), { domains: appSchema, label: 'loomverse.db' })
  try {
    const graph = new GraphService(db, new EventBus())
    const nodes: Array<{ flow: string; node: string }> = []
    let answered: { flow: string; node: string } | null = null
    for (let c = 0; c < CONVERSATIONS; c++) {
      const flow = graph.createFlow({ name: `conversation ${c}` }).id
      let last: string | null = null
      for (let t = 0; t < TURNS; t++) {
        last = graph.createNode({ flow_id: flow, prompt: `turn ${t}`, parent_ids: last ? [last] : [] }).id
        nodes.push({ flow, node: last })
        if (t % SIDE_EVERY === SIDE_EVERY - 1) {
          let side = last
          for (let s = 0; s < SIDE_TURNS; s++) {
            side = graph.createNode({ flow_id: flow, prompt: `side ${s}`, parent_ids: [side] }).id
            nodes.push({ flow, node: side })
          }
        }
      }
      if (c === 0) answered = { flow, node: last! }
    }
    // Every episode told at one of the nodes, round robin: a tenth of them on this conversation.
    const episodes = store.prepare(`SELECT id FROM units WHERE kind = ${UnitKind.EPISODE} ORDER BY id`).pluck().all()
    const place = store.prepare('UPDATE units SET origin_node_id = ?, origin_flow_id = ? WHERE id = ?')
    store.db
      .transaction(() =>
        episodes.forEach((id, i) => place.run(nodes[i % nodes.length]!.node, nodes[i % nodes.length]!.flow, id)),
      )
      .immediate()
    const { flow, node } = answered!
    let fromElsewhere = 0
    let packs = 0
    const withRule = (query: string) => {
      // As a reply's pack: the path walked when first asked (the graph keeps it), the roots kept.
      let walked: PathMembers | null = null
      const path = reachOf(graph, {
        onPath: (id) => (walked ??= graph.pathTo(flow, node)).has(id),
        nodeIds: [node],
        private: false,
      })
      const pack = buildPack(store, { query, budget: 2000, path })
      packs++
      fromElsewhere += pack.sections
        .flatMap((s) => s.items)
        .filter((i) => i.why.includes('another conversation')).length
    }
    const timed = (fn: (q: string) => void) => {
      const ms: number[] = []
      for (const q of queries) {
        const t = performance.now()
        fn(q)
        ms.push(performance.now() - t)
      }
      return ms
    }
    const t0 = performance.now()
    withRule('What did we talk about last time?')
    const first = +(performance.now() - t0).toFixed(3)
    for (const q of queries.slice(0, 20)) withRule(q) // warm-up, as the other pack benches
    const baseline = timed((query) => buildPack(store, { query, budget: 2000, path: null }))
    packs = 0
    fromElsewhere = 0
    const rule = timed(withRule)
    print({
      bench: 'memory.pack',
      units,
      rule: 'cross-conversation (reach.ts)',
      conversations: CONVERSATIONS,
      graph_nodes: nodes.length,
      budget_tokens: 2000,
      p50_ms: pct(rule, 50),
      p95_ms: pct(rule, 95),
      first_pack_ms: first,
      baseline_no_rule_p50_ms: pct(baseline, 50),
      baseline_no_rule_p95_ms: pct(baseline, 95),
      items_from_other_conversations_per_pack: +(fromElsewhere / packs).toFixed(1),
      note: 'episodes told round robin over every node; the node answered is the tip of the first conversation',
    })
  } finally {
    db.close()
  }
}
