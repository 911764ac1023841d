import type { FlowSummary } from './contract'

/** The conversation list's order, as list_flows answers it: pinned first, then the newest activity, then by name. */
export function listOrder(a: FlowSummary, b: FlowSummary): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1
  if (a.last_activity !== b.last_activity) return a.last_activity > b.last_activity ? -1 : 1
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

/** The list with one flow's row as it now is (null: left out), kept in order without asking for the list again. */
export function withListed(flows: readonly FlowSummary[], id: string, row: FlowSummary | null): FlowSummary[] {
  const rest = flows.filter((f) => f.id !== id)
  if (!row) return rest
  let at = 0
  while (at < rest.length && listOrder(rest[at]!, row) <= 0) at++
  rest.splice(at, 0, row)
  return rest
}
