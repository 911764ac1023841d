import type { Flow } from '@shared/contract'

/** A flow for store tests from "a>b" edges; its nodes arrive in the order listed. */
export function flowOf(id: string, ids: readonly string[], edges: readonly string[]): Flow {
  return {
    id,
    name: id,
    description: '',
    created: '',
    updated: '',
    persona_id: null,
    system_prompt: '',
    token_budget: null,
    nodes: ids.map((n, i) => ({ id: n, index: i + 1, position: null, pinned: false })),
    connections: edges.map((e) => {
      const [from, to] = e.split('>') as [string, string]
      return { from, to }
    }),
  }
}
