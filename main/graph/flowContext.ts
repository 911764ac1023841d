import type { ContextPreview, Node, Persona } from '@shared/contract'
import type { SettingsReader } from '../settings/settingsService'
import { uiLanguage } from '../kernel/language'
import { buildContext, type ContextFlow, type PlacedPart, type SceneVoices } from './context'
import type { GraphService } from './graphService'
import { buildStoryContext, type StoryContext } from './storyContext'

export type { ContextFlow, PlacedPart, SceneVoices }
/** How a node is sent as the parent of the next turn (whole, its prompt and reply): counted ahead by chat. */
export { pairText } from './context'
export type { StoryContext } from './storyContext'

/** A quarter of the context budget, at most 2,000 tokens, is what the persona's memory may take. */
export function memoryShare(budget: number): number {
  return Math.min(2000, Math.floor(budget / 4))
}

/** The token budget of a flow's context: its own, or the app's. */
export function contextBudget(graph: GraphService, settings: SettingsReader, flowId: string): number {
  return budgetOf(graph.flowInfo(flowId), settings)
}

/** The same, of a flow already read. */
export function budgetOf(flow: Pick<FlowInfo, 'token_budget'>, settings: SettingsReader): number {
  return flow.token_budget ?? settings.get().context_budget
}

/** A flow's own fields, as a turn reads them once (GraphService.flowInfo). */
export type FlowInfo = ReturnType<GraphService['flowInfo']>

/** The context for a prompt sent below `parentIds` in a flow, with the flow's (or the app's) budget. */
export function flowContext(
  graph: GraphService,
  settings: SettingsReader,
  input: {
    flowId: string
    parentIds: readonly string[]
    prompt: string
    persona?: Persona | null
    /** The persona's MemoryPack for this prompt, sized to `memoryShare` of this budget. */
    memory?: string | null
    /** Story mode: the scenario, the story so far and recent turns instead of summaries. */
    story?: StoryContext | null
    /** The budget in our token count, when the model counts differently (default: the flow's budget). */
    budget?: number
    /** The flow above the parents, when the caller has read it already (or will share it). */
    above?: () => ContextFlow
    /** Lorebook entries and the Author's Note, placed (see buildContext). */
    placed?: readonly PlacedPart[]
    /** A group scene: who is in it (said after the system text) and who spoke each reply. */
    scene?: (SceneVoices & { note: string }) | null
  },
): ContextPreview {
  const budget = input.budget ?? contextBudget(graph, settings, input.flowId)
  // Each node read once per context: the builders ask for a node's time again and again.
  const read = new Map<string, Node>()
  const node = (id: string) => {
    let n = read.get(id)
    if (!n) read.set(id, (n = graph.getNode(id)))
    return n
  }
  if (input.story) {
    const info = graph.flowInfo(input.flowId)
    return buildStoryContext({
      flowId: info.id,
      systemPrompt: systemText(info.system_prompt, input.persona ?? null),
      parentIds: input.parentIds,
      prompt: input.prompt,
      budget,
      language: uiLanguage(settings.get().language),
      memory: input.memory,
      story: input.story,
      node,
      isMember: (id) => graph.isMember(input.flowId, id),
      parentsOf: (id) => graph.parentsOf(input.flowId, id),
      placed: input.placed,
    })
  }
  const flow = input.above?.() ?? graph.contextFlow(input.flowId, input.parentIds)
  const system = [systemText(flow.system_prompt, input.persona ?? null), input.scene?.note ?? ''].filter(Boolean)
  return buildContext({
    flow: { ...flow, system_prompt: system.join('\n\n') },
    node,
    prefetch: (ids) => {
      for (const n of graph.getNodes(ids.filter((id) => !read.has(id)))) read.set(n.id, n)
    },
    parentIds: input.parentIds,
    prompt: input.prompt,
    budget,
    language: uiLanguage(settings.get().language),
    memory: input.memory,
    placed: input.placed,
    scene: input.scene,
  })
}

/** The persona speaks first (who it is, what it promised), then the conversation's own instructions. */
export function systemText(flowPrompt: string, persona: Persona | null): string {
  if (!persona) return flowPrompt
  const who = [
    persona.persona_text.trim(),
    persona.contract_text.trim() && `[Contract]\n${persona.contract_text.trim()}`,
  ]
  return [`You are ${persona.name}.`, ...who, flowPrompt.trim()].filter(Boolean).join('\n\n')
}
