import type { ContextPart, Persona } from '@shared/contract'
import type { ContextFlow, PlacedPart } from '../graph/flowContext'
import type { GraphService } from '../graph/graphService'
import { tokenCount } from '../kernel/tokens'
import type { EngineBook, FiredRecord, SkippedKey } from '../lorebook/loreEngine'
import { loreContext, type LoreInsert } from '../lorebook/loreContext'
import type { LorebookService } from '../lorebook/lorebookService'
import { expandMacros } from '../lorebook/macros'
import { seededRandom } from '../lorebook/seededRandom'

/** How far up a branch the lorebooks look: sticky and cooldown counts, and the deepest scan (2 messages a turn). */
const LOOK_UP = 200

export interface LorePlacement {
  placed: PlacedPart[]
  fired: FiredRecord[]
  /** The persona with macros filled in its texts. */
  persona: Persona | null
  /** Keys left out of matching for taking too long: the inspector says so beside the turn. */
  skipped: SkippedKey[]
}

/**
 * The lorebooks' and the Author's Note's part of a prompt's context, read along the branch the
 * prompt is on: its newest messages for keys, its nodes' fired entries for sticky and cooldown.
 */
export function lorePlacement(
  deps: { graph: GraphService; lore: LorebookService; userName: string },
  input: {
    flowId: string
    parentIds: readonly string[]
    prompt: string
    persona: Persona | null
    /** Story mode: the story, and its scenario folder's book. */
    story?: { storyId: string; book: EngineBook | null } | null
    above: () => ContextFlow
  },
): LorePlacement {
  const { graph } = deps
  const branch = () => {
    const ancestors = branchAbove(graph, input.flowId, input.parentIds, input.above)
    const messages = [input.prompt]
    const wanted = ancestors.ids.slice(0, LOOK_UP / 2)
    const byId = new Map(graph.getNodes(wanted).map((n) => [n.id, n]))
    for (const n of wanted.map((id) => byId.get(id)!)) {
      if (n.response) messages.push(n.response)
      if (n.prompt) messages.push(n.prompt)
    }
    return { messages, ancestors: ancestors.ids, turn: ancestors.turns }
  }
  const seed = `${input.flowId}|${input.parentIds.join(',')}|${input.prompt}`
  const names = { char: input.persona?.name ?? 'Assistant', user: deps.userName || 'User', now: new Date() }
  const { inserts, fired, outlets, skipped } = loreContext(deps.lore, {
    scope: { personaId: input.persona?.id ?? null, flowId: input.flowId, storyId: input.story?.storyId ?? null },
    extraBooks: input.story?.book ? [input.story.book] : [],
    branch,
    seed,
    names,
  })
  const random = seededRandom(seed)
  const fill = (text: string) => expandMacros(text, { ...names, random, outlets })
  const persona = input.persona
    ? {
        ...input.persona,
        persona_text: fill(input.persona.persona_text),
        contract_text: fill(input.persona.contract_text),
      }
    : null
  return { placed: inserts.map(toPlaced), fired, persona, skipped }
}

function toPlaced(i: LoreInsert): PlacedPart {
  const part: ContextPart = { kind: i.kind, node_id: null, text: i.text, tokens: tokenCount(i.text) }
  if (i.place === 'at_depth') part.depth = i.depth
  if (i.fired) {
    const { book_id, book_name, entry, reason } = i.fired
    part.lore = { book_id, book_name, uid: entry.uid, comment: entry.comment, reason, position: entry.position }
  }
  return { part, place: i.place, role: i.role }
}

/**
 * The nodes above the prompt, newest first, as far as the lorebooks look, and how many turns the
 * branch has. One parent: the flow's kept path; a merge: up its first parents.
 */
function branchAbove(
  graph: GraphService,
  flowId: string,
  parentIds: readonly string[],
  above: () => ContextFlow,
): { ids: string[]; turns: number } {
  if (parentIds.length === 0) return { ids: [], turns: 0 }
  const flow = above()
  if (parentIds.length === 1 && flow.pathTo) {
    const order = flow.pathTo(parentIds[0]!).order
    return { ids: order.slice(-LOOK_UP).reverse(), turns: order.length }
  }
  const ids: string[] = []
  let at: string | undefined = parentIds[0]
  while (at && ids.length < LOOK_UP) {
    ids.push(at)
    at = graph.parentsOf(flowId, at)[0]
  }
  return { ids, turns: ids.length }
}
