import type { ContextPreview, Persona } from '@shared/contract'
import {
  budgetOf,
  flowContext,
  memoryShare,
  type ContextFlow,
  type FlowInfo,
  type StoryContext,
} from '../graph/flowContext'
import type { GraphService } from '../graph/graphService'
import type { Calibration } from '../llm/tokenCalibration'
import type { EngineBook } from '../lorebook/loreEngine'
import type { LorebookService } from '../lorebook/lorebookService'
import type { ChatMemory } from '../memory/memory'
import { lorePlacement } from './lorePlacement'
import type { SettingsReader } from '../settings/settingsService'
import type { PersonaService } from '../persona/personaService'
import { uiLanguage } from '../kernel/language'
import { isScene, sceneVoices } from './groupScene'

export interface PromptContextDeps {
  graph: GraphService
  settings: SettingsReader
  memory: ChatMemory | null
  /** Story mode: what a story adds to its flow's context (null for a plain conversation). */
  scenes?: SceneSource | null
  /** Lorebooks and Author's Notes (null: none in play). */
  lore?: LorebookService | null
  /** The personas, by whose names a group scene's members read each other's replies. */
  personas?: PersonaService | null
}

/** A feature that shapes some flows' context: story mode, for the flows its stories play on. */
export interface SceneSource {
  /** The story a flow plays, read once for a turn; null when the flow is not a story. */
  storyOf(flowId: string): FlowStory | null
}

/** What a story adds to a turn on its flow. */
export interface FlowStory {
  /** The story's part of the context for a prompt below `parentIds`. */
  context(parentIds: readonly string[]): StoryContext
  /** The chat model the story chose (`provider:model`), or null for the persona's. */
  chatModel(): string | null
  /** The story and the book its scenario's lorebook/ folder makes (null when the folder has no entries). */
  lore(): { storyId: string; book: EngineBook | null }
}

/**
 * The one place a prompt's context is built, memory included: for the turn that is sent and for
 * the inspector's "what would be sent" alike, so the two never differ. The MemoryPack is asked
 * for memory's share of the flow's budget, and the context builder counts it inside that budget.
 */
export async function promptContext(
  deps: PromptContextDeps,
  input: {
    flowId: string
    parentIds: readonly string[]
    prompt: string
    persona: Persona | null
    /** The node being answered; null for a preview (no node yet). */
    nodeId: string | null
    /** The prompt's words are never kept (a meta request's): memory keeps no pack searched with them. */
    secret?: boolean
    /**
     * What memory and the lorebooks search, when not the prompt: a program's request, its own
     * words without the instruction around them (which would match the same memories and keys every time).
     */
    searched?: string
    /** How the chat model counts against our count; the budget holds that much less of ours. */
    calibration?: Calibration | null
    /**
     * What the tools offered with the prompt take (their JSON schemas, in our count): they go to
     * the model beside the messages, so the messages get that much less of the budget.
     */
    toolTokens?: number
    /** The flow's own fields, when the turn has read them already (read here otherwise). */
    flow?: FlowInfo
    /** The story the flow plays, when the turn has asked already (asked here otherwise; null: none). */
    story?: FlowStory | null
  },
): Promise<ContextPreview> {
  const {
    calibration = null,
    toolTokens = 0,
    secret = false,
    searched = input.prompt,
    flow,
    story: asked,
    ...rest
  } = input
  const played = asked !== undefined ? asked : (deps.scenes?.storyOf(input.flowId) ?? null)
  // Read once for the budget and the scene: each read is a query and a parse of the flow's cast.
  const info = flow ?? deps.graph.flowInfo(input.flowId)
  const flowBudget = budgetOf(info, deps.settings)
  // Built in our count against the budget as much of ours as the model's budget holds.
  const budget = Math.max(1, Math.floor(flowBudget / (calibration?.ratio ?? 1)) - toolTokens)
  // The flow's part above the parents is read once for the history (the graph keeps the newest
  // paths, which memory's branch filter reads too).
  let above: ContextFlow | null = null
  const flowAbove = () => (above ??= deps.graph.contextFlow(input.flowId, input.parentIds, info))
  const memory =
    input.persona && deps.memory
      ? await memoryPack(deps.memory, {
          personaId: input.persona.id,
          persona: input.persona,
          query: searched,
          flowId: input.flowId,
          flowPrivate: info.memory_private,
          nodeId: secret ? null : input.nodeId,
          parentIds: input.parentIds,
          budgetTokens: memoryShare(budget),
          pathAbove: () => deps.graph.pathAbove(input.flowId, input.parentIds),
        })
      : null
  const story = played?.context(input.parentIds) ?? null
  const lore = deps.lore
    ? lorePlacement(
        { graph: deps.graph, lore: deps.lore, userName: deps.settings.get().user.name },
        { ...input, prompt: searched, above: flowAbove, story: played?.lore() ?? null },
      )
    : null
  // The node answered keeps what fired, for the stickiness and cooldown of the turns below it.
  if (lore && input.nodeId) deps.lore!.recordFired(input.nodeId, lore.fired)
  const context = flowContext(deps.graph, deps.settings, {
    ...rest,
    scene: sceneFor(deps, info, input.persona),
    persona: lore?.persona ?? input.persona,
    memory,
    story,
    budget,
    above: flowAbove,
    placed: lore?.placed,
  })
  const withLore = lore?.skipped.length ? { ...context, skipped_lore_keys: lore.skipped } : context
  const withTools =
    toolTokens > 0 ? { ...withLore, budget: withLore.budget + toolTokens, tool_tokens: toolTokens } : withLore
  return calibration ? asTheModelCounts(withTools, calibration, flowBudget) : withTools
}

/**
 * The user set the budget in the model's tokens and reads every count against it: the preview
 * shows the flow's budget and each part's tokens as the model counts them (ours times the ratio).
 */
function asTheModelCounts(context: ContextPreview, calibration: Calibration, flowBudget: number): ContextPreview {
  const scaled = (tokens: number) => Math.round(tokens * calibration.ratio)
  return {
    ...context,
    parts: context.parts.map((p) => ({ ...p, tokens: scaled(p.tokens) })),
    total_tokens: scaled(context.total_tokens),
    ...(context.tool_tokens ? { tool_tokens: scaled(context.tool_tokens) } : {}),
    budget: flowBudget,
    calibration,
  }
}

/** How the persona answering reads its flow when the flow is a group scene; null otherwise. */
function sceneFor(deps: PromptContextDeps, flow: FlowInfo, persona: Persona | null) {
  if (!persona || !isScene(flow)) return null
  const settings = deps.settings.get()
  return sceneVoices(flow, persona, {
    nameOf: (id) => deps.personas?.find(id)?.name,
    userName: settings.user.name,
    language: uiLanguage(settings.language),
  })
}

async function memoryPack(memory: ChatMemory, input: Parameters<ChatMemory['packFor']>[0]): Promise<string | null> {
  try {
    return await memory.packFor(input)
  } catch {
    return null // a memory problem must not cost the user their reply
  }
}
