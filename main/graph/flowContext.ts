import type { ContextPreview, Persona } from '@shared/contract'
import type { SettingsService } from '../settings/settingsService'
import { uiLanguage } from '../kernel/language'
import { buildContext } from './context'
import type { GraphService } from './graphService'

/** The context for a prompt sent below `parentIds` in a flow, with the flow's (or the app's) budget. */
export function flowContext(
  graph: GraphService,
  settings: SettingsService,
  input: { flowId: string; parentIds: readonly string[]; prompt: string; persona?: Persona | null },
): ContextPreview {
  const flow = graph.getFlow(input.flowId)
  const prefs = settings.get()
  return buildContext({
    flow: { ...flow, system_prompt: systemText(flow.system_prompt, input.persona ?? null) },
    node: (id) => graph.getNode(id),
    parentIds: input.parentIds,
    prompt: input.prompt,
    budget: flow.token_budget ?? prefs.context_budget,
    language: uiLanguage(prefs.language),
  })
}

/** The persona speaks first (who it is, what it promised), then the conversation's own instructions. */
function systemText(flowPrompt: string, persona: Persona | null): string {
  if (!persona) return flowPrompt
  const who = [
    persona.persona_text.trim(),
    persona.contract_text.trim() && `[Contract]\n${persona.contract_text.trim()}`,
  ]
  return [`You are ${persona.name}.`, ...who, flowPrompt.trim()].filter(Boolean).join('\n\n')
}
