import { UnitKind, UnitState } from '../store/enums'
import type { MemoryStore } from '../store/store'

/**
 * Keeps what the user asked a persona to remember (askedToRemember.ts) as a pinned fact in their
 * words: pinned facts go into every pack its reach allows, whatever is asked, so "my cat is
 * called Mochi" is known in the next conversation before anyone asks about cats. It rests on
 * the turn that said it (its node and its episode): the branches that turn is on, and the
 * persona's other conversations, remember it; a sibling branch, where it was never said, does
 * not (packBuilder.eligibility). Said again (a Regenerate, a repeat), the fact kept already is
 * answered, not a second one. Answers the fact's unit id.
 */
export function keepTold(
  store: MemoryStore,
  input: { nodeId: string; flowId: string; episode: number; told: string },
): number {
  const kept = store
    .prepare(
      `SELECT u.id FROM payload_fact f JOIN units u ON u.id = f.unit_id
       WHERE f.object_text = ? AND u.kind = ${UnitKind.FACT} AND u.source = 'user' AND u.state != ${UnitState.ARCHIVED}
       ORDER BY u.id DESC LIMIT 1`,
    )
    .pluck()
    .get(input.told) as number | undefined
  if (kept !== undefined) return kept
  return store.createUnit({
    kind: UnitKind.FACT,
    source: 'user',
    state: UnitState.VALIDATED,
    confidence: 1,
    pin: true,
    origin_node_id: input.nodeId,
    origin_flow_id: input.flowId,
    evidence: [input.episode],
    payload: { predicate: 'is', object_text: input.told, evidence_unit_ids_json: JSON.stringify([input.episode]) },
  })
}
