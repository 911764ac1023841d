import { TOLD_SOURCE, UnitKind, UnitState } from '../store/enums'
import type { MemoryStore } from '../store/store'

/**
 * Keeps what the user asked a persona to remember (rememberOrForget.ts) as a pinned fact in their
 * words: pinned facts go into every pack its reach allows, whatever is asked, so "my cat is
 * called Mochi" is known in the next conversation before anyone asks about cats. It rests on
 * the turn that said it (its node and its episode): the branches that turn is on, and the
 * persona's other conversations, remember it; a sibling branch, where it was never said, does
 * not (packBuilder.eligibility). Said again (a Regenerate, a repeat, after a "forget"), the fact
 * kept already is answered, unarchived, not a second one. Answers the fact's unit id.
 */
export function keepTold(
  store: MemoryStore,
  input: { nodeId: string; flowId: string; episode: number; told: string },
): number {
  // Kept already, or forgotten since (archived): the same fact, brought back, never a second one.
  const kept = store
    .prepare(
      `SELECT u.id, u.state FROM payload_fact f JOIN units u ON u.id = f.unit_id
       WHERE f.object_text = ? AND u.kind = ${UnitKind.FACT} AND u.source = '${TOLD_SOURCE}'
       ORDER BY u.state = ${UnitState.ARCHIVED}, u.id DESC LIMIT 1`,
    )
    .get(input.told) as { id: number; state: number } | undefined
  if (kept?.state === UnitState.ARCHIVED)
    store.editMeta(kept.id, { state: UnitState.VALIDATED }, 'asked again to remember')
  if (kept !== undefined) return kept.id
  return store.createUnit({
    kind: UnitKind.FACT,
    source: TOLD_SOURCE,
    state: UnitState.VALIDATED,
    confidence: 1,
    // As worth remembering as anything gets: the user said so.
    salience: 1,
    pin: true,
    origin_node_id: input.nodeId,
    origin_flow_id: input.flowId,
    evidence: [input.episode],
    payload: { predicate: 'is', object_text: input.told, evidence_unit_ids_json: JSON.stringify([input.episode]) },
  })
}

/**
 * Takes back what the user asked to be remembered and now asks to forget: every fact kept so
 * (TOLD_SOURCE, not archived) that says it, or of which it is a part ("about my cat" names "my cat
 * is called Mochi"), is archived, out of every pack; Undo (unarchive) brings it back. Other turns
 * that mention it stay turns. Answers what was forgotten, by unit id and text.
 */
export function forgetTold(store: MemoryStore, statement: string): Array<{ unit_id: number; text: string }> {
  const wanted = plain(statement)
  if (!wanted) return []
  const kept = store
    .prepare(
      `SELECT u.id, f.object_text AS text FROM payload_fact f JOIN units u ON u.id = f.unit_id
       WHERE u.kind = ${UnitKind.FACT} AND u.source = '${TOLD_SOURCE}' AND u.state != ${UnitState.ARCHIVED}`,
    )
    .all() as Array<{ id: number; text: string }>
  const forgotten = kept.filter(({ text }) => {
    const fact = plain(text)
    return fact.includes(wanted) || wanted.includes(fact)
  })
  for (const { id } of forgotten) store.editMeta(id, { state: UnitState.ARCHIVED }, 'forgotten at the user’s request')
  return forgotten.map(({ id, text }) => ({ unit_id: id, text }))
}

/** Words only, lower case, one space apart: how a statement is compared with what was kept. */
function plain(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(' ')
}
