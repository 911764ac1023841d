import { worldMethods } from '@shared/contract'
import { toErrorValue } from '@shared/errors'
import type { ChatToolContext, ChatToolOutcome, ChatToolProvider } from '../chat/chatService'
import type { EventBus } from '../kernel/events'
import { resolveModel } from '../llm/models'
import type { PersonaService } from '../persona/personaService'
import { worldTools } from './itemTools'
import type { WorldService } from './worldService'

const names = new Set(worldTools.map((t) => t.name))

/**
 * Runs the persona's item tools with the same checks as the contract methods. Every
 * failure comes back as text the model can read and act on, never as a crash.
 */
export async function runWorldTool(
  world: WorldService,
  personas: PersonaService,
  env: NodeJS.ProcessEnv,
  name: string,
  rawArgs: unknown,
  personaId: string | null,
): Promise<ChatToolOutcome> {
  try {
    const args = typeof rawArgs === 'string' ? parseArgs(rawArgs) : rawArgs
    const author = personaId ? ({ kind: 'persona', id: personaId } as const) : ({ kind: 'user' } as const)
    const withPersona = personaId ? { persona_id: personaId } : {}
    switch (name) {
      case 'item_view': {
        const input = check('item_view', args)
        const content = world.view(input.item_id)
        if (content.kind === 'document') return { content: content.text }
        const item = content.item
        return {
          content: JSON.stringify({
            item_id: item.id,
            type: 'picture',
            name: item.name,
            summary: item.summary ?? item.description,
          }),
          // Only a chat model that is also the persona's vision model is shown the pixels.
          images: canSee(personas, env, personaId) ? [{ mime: content.mime, data_base64: content.data_base64 }] : [],
        }
      }
      case 'document_create': {
        const input = check('document_create', { ...asRecord(args), ...withPersona })
        const item = world.documentCreate(input, author)
        return { content: world.texts().created(item.id, item.name) }
      }
      case 'item_use': {
        const record = asRecord(args)
        // A model may write action_json as an object rather than JSON text; both mean the same.
        if (record.action_json && typeof record.action_json === 'object')
          record.action_json = JSON.stringify(record.action_json)
        const input = check('item_use', { ...record, ...withPersona })
        return { content: world.itemUse(input, author).message }
      }
      case 'generate_image': {
        const input = check('generate_image', { ...asRecord(args), ...withPersona })
        const item = await world.generateImage(input)
        return { content: world.texts().generated(item.id, item.name) }
      }
      default:
        return { content: `error: unknown tool ${name}`, isError: true }
    }
  } catch (e) {
    return { content: `error: ${toErrorValue(e).message}`, isError: true }
  }
}

/** The world's tools in the chat's tool loop, each call recorded on the node that made it. */
export function worldToolProvider(
  world: WorldService,
  personas: PersonaService,
  env: NodeJS.ProcessEnv,
  bus: EventBus,
): ChatToolProvider {
  return {
    tools: () => [...worldTools],
    execute: (call, ctx: ChatToolContext) =>
      names.has(call.name)
        ? runWorldTool(world, personas, env, call.name, call.arguments, ctx.personaId)
        : Promise.resolve(null),
    record(ctx, call, outcome) {
      if (outcome.kept) return
      world.store.addToolCall(ctx.nodeId, {
        name: call.name,
        arguments: call.arguments,
        result: outcome.content,
        isError: outcome.isError === true,
      })
      bus.emit('tool_calls_recorded', { node_id: ctx.nodeId, calls: world.store.toolCalls(ctx.nodeId) })
    },
  }
}

type ToolMethod = 'item_view' | 'document_create' | 'item_use' | 'generate_image'

function check<M extends ToolMethod>(method: M, args: unknown) {
  const parsed = worldMethods[method].input.safeParse(args)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`${method}: ${issue.path.join('.') || 'arguments'}: ${issue.message}`)
  }
  return parsed.data as ReturnType<(typeof worldMethods)[M]['input']['parse']>
}

function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json || '{}')
  } catch {
    throw new Error('arguments must be a JSON object')
  }
}

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {}
}

function canSee(personas: PersonaService, env: NodeJS.ProcessEnv, personaId: string | null): boolean {
  const persona = personas.find(personaId)
  const chat = resolveModel('chat', persona?.chat_model, env)
  const vision = resolveModel('vision', persona?.vision_model, env)
  return chat.provider === vision.provider && chat.model === vision.model
}
