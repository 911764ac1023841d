import type { Connection } from '@shared/contract'

/** Parents and children by node id, for walking a flow's DAG. */
export interface Adjacency {
  parents: Map<string, string[]>
  children: Map<string, string[]>
}

export function adjacency(connections: readonly Connection[]): Adjacency {
  const parents = new Map<string, string[]>()
  const children = new Map<string, string[]>()
  for (const { from, to } of connections) {
    push(children, from, to)
    push(parents, to, from)
  }
  return { parents, children }
}

/** True when adding from → to would close a loop: `from` is already reachable from `to`. */
export function wouldCycle(connections: readonly Connection[], from: string, to: string): boolean {
  if (from === to) return true
  const { children } = adjacency(connections)
  return reachable(children, to).has(from)
}

/** Every node reachable from `start` along `next` (not including `start` unless on a loop). */
export function reachable(next: Map<string, string[]>, start: string): Set<string> {
  const seen = new Set<string>()
  const stack = [...(next.get(start) ?? [])]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    stack.push(...(next.get(id) ?? []))
  }
  return seen
}

/**
 * The active path to `nodeId`: its ancestors (through every parent of a merge) and the node
 * itself, ordered so every node comes after its parents, ties broken by timestamp — the order
 * in which the conversation happened.
 */
export function activePath(
  connections: readonly Connection[],
  nodeId: string,
  timestampOf: (id: string) => string,
): string[] {
  const { parents } = adjacency(connections)
  const members = reachable(parents, nodeId)
  members.add(nodeId)
  return topologicalOrder(members, connections, timestampOf)
}

export function topologicalOrder(
  members: Set<string>,
  connections: readonly Connection[],
  timestampOf: (id: string) => string,
): string[] {
  const indegree = new Map<string, number>([...members].map((id) => [id, 0]))
  const children = new Map<string, string[]>()
  for (const { from, to } of connections) {
    if (!members.has(from) || !members.has(to)) continue
    indegree.set(to, indegree.get(to)! + 1)
    push(children, from, to)
  }
  const byTime = (a: string, b: string) => timestampOf(a).localeCompare(timestampOf(b)) || a.localeCompare(b)
  const ready = [...members].filter((id) => indegree.get(id) === 0).sort(byTime)
  const order: string[] = []
  while (ready.length > 0) {
    const id = ready.shift()!
    order.push(id)
    for (const child of children.get(id) ?? []) {
      const left = indegree.get(child)! - 1
      indegree.set(child, left)
      if (left === 0) {
        ready.push(child)
        ready.sort(byTime)
      }
    }
  }
  return order
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
