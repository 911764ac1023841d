import type { ContextPreview, Persona } from '@shared/contract'
import type { SettingsService } from '../settings/settingsService'
import { uiLanguage } from '../kernel/language'
import { buildContext, type StoryContext } from './context'

export type { StoryContext } from './context'
import type { GraphService } from './graphService'

/** A quarter of the context budget, at most 2,000 tokens, is what the persona's memory may take. */
export function memoryShare(budget: number): number {
  return Math.min(2000, Math.floor(budget / 4))
}

/** The token budget of a flow's context: its own, or the app's. */
export function contextBudget(graph: GraphService, settings: SettingsService, flowId: string): number {
  return graph.getFlow(flowId).token_budget ?? settings.get().context_budget
}

/** The context for a prompt sent below `parentIds` in a flow, with the flow's (or the app's) budget. */
export function flowContext(
  graph: GraphService,
  settings: SettingsService,
  input: {
    flowId: string
    parentIds: readonly string[]
    prompt: string
    persona?: Persona | null
    /** The persona's MemoryPack for this prompt, sized to `memoryShare` of this budget. */
    memory?: string | null
    /** Story mode: the scenario, the story so far and recent turns instead of summaries. */
    story?: StoryContext | null
  },
): ContextPreview {
  const flow = graph.getFlow(input.flowId)
  return buildContext({
    flow: { ...flow, system_prompt: systemText(flow.system_prompt, input.persona ?? null) },
    node: (id) => graph.getNode(id),
    parentIds: input.parentIds,
    prompt: input.prompt,
    budget: contextBudget(graph, settings, input.flowId),
    language: uiLanguage(settings.get().language),
    memory: input.memory,
    story: input.story,
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
