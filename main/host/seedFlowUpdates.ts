import type { Flow, FlowPatch } from '@shared/contract'

/** The seed's `flow_updated` for a `flow_changed`, or null when it is not wanted (or the flow is gone). */
export type SeedFlowUpdate = (
  patch: FlowPatch,
  wanted: (named: { flow: { id: string; name: string } }) => boolean,
) => { flow: Flow } | null

/**
 * The VizPrompt seed's clients hear a flow whole after every change (`flow_updated`, seed §12);
 * the app hears only what changed (`flow_changed`). The whole flow is read only for a connection
 * that subscribed to it, and once per announcement however many of them did.
 */
export function seedFlowUpdates(wholeFlow: (flowId: string) => Flow | null): SeedFlowUpdate {
  let last: FlowPatch | null = null
  let made: { flow: Flow } | null = null
  return (patch, wanted) => {
    if (!wanted({ flow: { id: patch.flow_id, name: patch.flow.name } })) return null
    if (patch !== last) {
      last = patch
      const flow = wholeFlow(patch.flow_id)
      made = flow ? { flow } : null
    }
    return made
  }
}
