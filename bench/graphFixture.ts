import { randomUUID } from 'node:crypto'
import type { GraphService } from '../main/graph/graphService'
import { isoNow } from '../main/kernel/time'

export interface GeneratedFlow {
  id: string
  nodeIds: string[]
}

/**
 * Writes a flow of `count` nodes straight through the store (one transaction), shaped like a
 * long conversation: a main line with a retry branch every 7 turns and a merge every 23.
 * `positioned` stores canvas positions as if the user's canvas had laid them out already.
 */
export function generateFlow(
  graph: GraphService,
  count: number,
  options: { name: string; positioned: boolean },
): GeneratedFlow {
  const flow = graph.createFlow({ name: options.name })
  const store = graph.store
  const ids: string[] = []
  const base = Date.parse('2026-01-01T00:00:00Z')
  store.db
    .transaction(() => {
      let main: string | null = null
      let branch: string | null = null
      for (let i = 0; i < count; i++) {
        const id = randomUUID()
        ids.push(id)
        const onBranch = i % 7 === 3 && main !== null
        const parent = onBranch ? (branch ?? main) : main
        store.insertNode({
          id,
          timestamp: isoNow(new Date(base + i * 60_000)),
          prompt: `Turn ${i}: 今日の話題は${i % 2 ? '東京の桜' : '京都の紅葉'}について。What should we talk about next?`,
          response: `Reply ${i}. **Markdown** with a list:\n\n- one\n- two\n\nそして日本語の文章も少し入ります。`,
          model: 'bench:model',
        })
        store.setTags(id, [`topic${i % 13}`, i % 2 ? '桜' : '紅葉'])
        const depth = i
        store.addMember(flow.id, id, options.positioned ? { x: onBranch ? 380 : 0, y: depth * 260 } : null)
        if (parent) store.addEdge(flow.id, parent, id)
        if (onBranch) branch = id
        else {
          if (i % 23 === 0 && branch && main) store.addEdge(flow.id, branch, id) // merge the branch back
          main = id
        }
      }
    })
    .immediate()
  return { id: flow.id, nodeIds: ids }
}
