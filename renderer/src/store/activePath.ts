import type { Flow } from '@shared/contract'

/**
 * The open flow's shape as the transcript reads it: parents and children by node, arrival
 * order, and the groups of alternatives (nodes with the same parents: retries and edits).
 * Built once per flow object and cached, so every row of a 2,000-turn transcript can ask.
 */
export interface FlowShape {
  parents: ReadonlyMap<string, readonly string[]>
  children: ReadonlyMap<string, readonly string[]>
  index: ReadonlyMap<string, number>
  /** The alternatives a node has (itself included), oldest first. */
  alternatives: ReadonlyMap<string, readonly string[]>
}

const shapes = new WeakMap<Flow, FlowShape>()

export function flowShape(flow: Flow): FlowShape {
  const cached = shapes.get(flow)
  if (cached) return cached
  const index = new Map(flow.nodes.map((m) => [m.id, m.index]))
  const byIndex = (a: string, b: string) => index.get(a)! - index.get(b)!
  const parents = new Map<string, string[]>()
  const children = new Map<string, string[]>()
  for (const c of flow.connections) {
    if (!index.has(c.from) || !index.has(c.to)) continue
    parents.set(c.to, [...(parents.get(c.to) ?? []), c.from])
    children.set(c.from, [...(children.get(c.from) ?? []), c.to])
  }
  for (const list of parents.values()) list.sort(byIndex)
  for (const list of children.values()) list.sort(byIndex)
  // Alternatives share their parents exactly: a retry or an edited prompt gets the parents of
  // the node it replaces; roots are alternatives of each other (an edited first prompt).
  const groups = new Map<string, string[]>()
  for (const m of flow.nodes) {
    const key = (parents.get(m.id) ?? []).join(' ')
    const group = groups.get(key)
    if (group) group.push(m.id)
    else groups.set(key, [m.id])
  }
  const alternatives = new Map<string, string[]>()
  for (const group of groups.values()) {
    group.sort(byIndex)
    for (const id of group) alternatives.set(id, group)
  }
  const shape = { parents, children, index, alternatives }
  shapes.set(flow, shape)
  return shape
}

/**
 * Root → leaf in reading order: every ancestor of the leaf (a merge pulls in all its parents'
 * branches), each after all of its parents, earlier branches first.
 */
export function readingPath(flow: Flow, leafId: string | null): string[] {
  const { parents, index } = flowShape(flow)
  if (!leafId || !index.has(leafId)) return []
  const order: string[] = []
  const seen = new Set<string>([leafId])
  // Iterative post-order: a node is emitted once all its parents have been.
  const stack: Array<{ id: string; next: number }> = [{ id: leafId, next: 0 }]
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    const ps = parents.get(top.id) ?? []
    if (top.next < ps.length) {
      const p = ps[top.next++]!
      if (!seen.has(p)) {
        seen.add(p)
        stack.push({ id: p, next: 0 })
      }
    } else {
      order.push(top.id)
      stack.pop()
    }
  }
  return order
}

/** The newest node with no children at or below `id`: where its branch left off. */
export function newestLeafBelow(flow: Flow, id: string): string {
  const { children } = flowShape(flow)
  const below = new Set<string>([id])
  const stack = [id]
  while (stack.length > 0) {
    for (const c of children.get(stack.pop()!) ?? []) {
      if (!below.has(c)) {
        below.add(c)
        stack.push(c)
      }
    }
  }
  return newestLeaf(flow, below)
}

function newestLeaf(flow: Flow, among: ReadonlySet<string>): string {
  const { children, index } = flowShape(flow)
  let best: string | null = null
  for (const id of among) if (!children.has(id) && (best === null || index.get(id)! > index.get(best)!)) best = id
  return best!
}

/** True when `id` lies on the path root → `leafId`. */
export function isOnPath(flow: Flow, leafId: string, id: string): boolean {
  if (leafId === id) return true
  const { parents } = flowShape(flow)
  const seen = new Set<string>([leafId])
  const stack = [leafId]
  while (stack.length > 0) {
    for (const p of parents.get(stack.pop()!) ?? []) {
      if (p === id) return true
      if (!seen.has(p)) {
        seen.add(p)
        stack.push(p)
      }
    }
  }
  return false
}

/**
 * The leaf the transcript reads down to. Choosing a node on the path keeps the path (reading
 * an earlier message must not switch branches); choosing one elsewhere reads down to the newest
 * leaf below it; with nothing chosen the path stays while it exists, else the newest leaf.
 * A path whose leaf gained turns (another window, a program, a new connection) reads on to them.
 */
export function resolveLeaf(flow: Flow, previousLeaf: string | null, selectedId: string | null): string | null {
  const { index } = flowShape(flow)
  const previous = previousLeaf !== null && index.has(previousLeaf) ? previousLeaf : null
  if (selectedId !== null && index.has(selectedId)) {
    if (previous !== null && isOnPath(flow, previous, selectedId)) return newestLeafBelow(flow, previous)
    return newestLeafBelow(flow, selectedId)
  }
  if (previous !== null) return newestLeafBelow(flow, previous)
  if (flow.nodes.length === 0) return null
  return newestLeaf(flow, new Set(flow.nodes.map((m) => m.id)))
}
