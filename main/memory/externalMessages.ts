import { EXTERNAL_FLOW_NAME, type ExternalMessageInput, type Persona } from '@shared/contract'
import { AppError } from '@shared/errors'
import { systemText } from '../graph/flowContext'
import type { GraphService } from '../graph/graphService'
import type { EventBus } from '../kernel/events'
import { uiLanguage } from '../kernel/language'
import { resolveModel } from '../llm/models'
import type { LlmRegistry } from '../llm/providers'
import type { ChatMessage } from '../llm/types'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { UnitKind, UnitState } from './enums'
import type { MemoryStore } from './store'

export interface ExternalDeps {
  bus: EventBus
  llm: LlmRegistry
  graph: GraphService
  personas: PersonaService
  settings: SettingsService
  env: NodeJS.ProcessEnv
  store: (personaId: string) => MemoryStore
  pack: (personaId: string, query: string) => Promise<string | null>
  /** All of an episode's jobs, or (a meta request) only the embedding. */
  queueJobs: (personaId: string, unitId: number, embeddingOnly: boolean) => void
  log: (message: string) => void
}

/** What a model is told, per language, when a program hands the persona something to pass on. */
const INSTRUCTIONS = {
  notification: {
    en: (source: string, text: string) =>
      `A notification arrived from ${source}:\n\n${text}\n\nTell your partner about it in your own words, briefly.`,
    ja: (source: string, text: string) =>
      `${source} から通知が届きました:\n\n${text}\n\nあなた自身の言葉で、パートナーに手短に伝えてください。`,
  },
  image: {
    en: 'Describe what this picture shows in two or three sentences.',
    ja: 'この画像に写っているものを二、三文で説明してください。',
  },
}

/**
 * Notifications and meta requests from other programs (seed 004): an EPISODE is saved at once as
 * a placeholder and its id answered; then, in the background, the pictures are summarised, the
 * persona answers with its MemoryPack, the episode gets the reply, the jobs are queued, the reply
 * shows in the persona's External flow, and `external_reply` is published.
 */
export class ExternalMessages {
  private readonly running = new Set<Promise<void>>()

  constructor(private readonly deps: ExternalDeps) {}

  receive(input: ExternalMessageInput): { unit_id: number; persona_id: string } {
    const persona = this.persona(input.persona_id)
    const store = this.deps.store(persona.id)
    const meta = input.type === 'meta_request'
    const unitId = store.createUnit({
      kind: UnitKind.EPISODE,
      source: input.type,
      state: UnitState.RAW,
      // A meta request's words are instructions to the persona, not something the user said.
      payload: { user_text: meta ? '[redacted]' : input.text, reply_text: null },
    })
    const work = this.answer(persona, store, unitId, input)
      .catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e)
        this.deps.log(`[memory] ${input.type} #${unitId} for ${persona.name} got no reply: ${message}`)
        this.deps.bus.emit('external_reply', {
          unit_id: unitId,
          persona_id: persona.id,
          type: input.type,
          data: { error: message },
        })
      })
      .finally(() => this.running.delete(work))
    this.running.add(work)
    return { unit_id: unitId, persona_id: persona.id }
  }

  /** Resolves once every background answer has finished (tests, shutting down). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running])
  }

  private async answer(persona: Persona, store: MemoryStore, unitId: number, input: ExternalMessageInput) {
    const language = uiLanguage(this.deps.settings.get().language)
    const imageSummary = input.images?.length ? await this.describe(persona, input.images, language) : null
    const words = input.type === 'notification' ? input.text : `${input.instruction}\n\n${input.payload_text}`
    const pack = await this.deps.pack(persona.id, words)
    const ask =
      input.type === 'notification'
        ? INSTRUCTIONS.notification[language](input.source_system, input.text)
        : `${input.instruction}\n\n${input.payload_text}`
    const messages: ChatMessage[] = [
      { role: 'system', content: [systemText('', persona), pack].filter(Boolean).join('\n\n') },
      { role: 'user', content: imageSummary ? `${ask}\n\n[picture] ${imageSummary}` : ask },
    ]
    const reply = await this.complete('chat', persona.chat_model, messages)
    store.editPayload(
      unitId,
      { reply_text: reply, ...(imageSummary ? { image_summary: imageSummary } : {}) },
      input.type,
    )
    this.deps.queueJobs(persona.id, unitId, input.type === 'meta_request')
    this.showInExternalFlow(persona, input, reply)
    this.deps.bus.emit('external_reply', {
      unit_id: unitId,
      persona_id: persona.id,
      type: input.type,
      data: input.type === 'notification' ? { system_text: input.text, message: reply } : { message: reply },
    })
  }

  /** The pictures in words, by the persona's vision model; none set up: no summary. */
  private async describe(persona: Persona, images: NonNullable<ExternalMessageInput['images']>, language: 'ja' | 'en') {
    const content = [
      { type: 'text' as const, text: INSTRUCTIONS.image[language] },
      ...images.map((i) => ({ type: 'image' as const, mime: i.mime, data_base64: i.data_base64 })),
    ]
    try {
      return await this.complete('vision', persona.vision_model, [{ role: 'user', content }])
    } catch (e) {
      this.deps.log(`[memory] no picture summary for ${persona.name}: ${e instanceof Error ? e.message : String(e)}`)
      return null
    }
  }

  private async complete(role: 'chat' | 'vision', personaModel: string | null, messages: ChatMessage[]) {
    const ref = resolveModel(role, personaModel, this.deps.env, this.deps.settings.get().chat.model)
    let text = ''
    for await (const event of this.deps.llm.connector(ref.provider).chat({ model: ref.model, messages })) {
      if (event.type === 'delta') text += event.text
    }
    return text.trim()
  }

  /** The reply where the user sees it: a node in the persona's External flow. */
  private showInExternalFlow(persona: Persona, input: ExternalMessageInput, reply: string): void {
    const graph = this.deps.graph
    const target = graph.personaFlowTail(EXTERNAL_FLOW_NAME, persona.id)
    graph.createNode({
      flow_id: target.flow_id,
      prompt: input.type === 'notification' ? `[${input.source_system}] ${input.text}` : '[redacted]',
      response: reply,
      ...(target.parent_id ? { parent_ids: [target.parent_id] } : {}),
    })
  }

  /** The persona named, or the only one there is. */
  private persona(id: string | undefined): Persona {
    if (id) return this.deps.personas.get(id)
    const all = this.deps.personas.list()
    if (all.length === 1) return all[0]!
    const names = all.map((p) => `${p.name} (${p.id})`).join(', ') || 'none yet'
    throw new AppError('bad_input', `persona_id: say which persona this is for; the personas are: ${names}`)
  }
}
