import { EXTERNAL_FLOW_NAME, type ExternalMessageInput, type Persona } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { GraphService } from '../graph/graphService'
import type { EventBus } from '../kernel/events'
import { isRetryable } from '../kernel/jobs/handlers'
import { uiLanguage } from '../kernel/language'
import { completeText } from '../llm/completeText'
import { resolveModel } from '../llm/models'
import type { LlmRegistry } from '../llm/providers'
import type { ChatMessage } from '../llm/types'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { UnitKind, UnitState } from './enums'
import {
  describeMessages,
  episodeUserText,
  externalNodePrompt,
  packQuery,
  replyData,
  replyMessages,
} from './externalPrompt'
import {
  RequestStatus,
  claimRequest,
  failRequest,
  findRequest,
  markDone,
  markReplied,
  openRequests,
  recordRequest,
  releaseRequest,
  retryRequestLater,
  type OpenRequest,
  type StoredRequest,
} from './externalRequests'
import { WorkLine } from './workLine'
import { nowSeconds, type MemoryStore } from './store'

export interface ExternalDeps {
  bus: EventBus
  llm: LlmRegistry
  graph: GraphService
  personas: PersonaService
  settings: SettingsService
  env: NodeJS.ProcessEnv
  store: (personaId: string) => MemoryStore
  pack: (personaId: string, query: string) => Promise<string | null>
  /** All of an episode's jobs, or (a meta request) only the embedding. Called inside the reply's transaction. */
  queueJobs: (personaId: string, unitId: number, embeddingOnly: boolean) => void
  /** Tries and first back-off (seconds, doubling) for a reply the model failed; memory jobs' settings. */
  retry?: { maxTries?: number; backoffSeconds?: number }
  log: (message: string) => void
}

/** Replies written at once: a restart after a crash would otherwise fire every pending one together. */
const ANSWERING_AT_ONCE = 4

/**
 * Notifications and meta requests from other programs (seed 004), as durable work:
 * - receive: the placeholder EPISODE and the request (with everything needed to answer it) are
 *   stored in one transaction, then the unit's id is answered: acknowledged means stored;
 * - answer: the pictures in words, the MemoryPack, the persona's reply; then, in one
 *   transaction, the episode's reply, its jobs, and the External-flow node planned for it; the
 *   node is written; the request marked done; `external_reply` published;
 * - resume (start-up, no other live process on the home): finishes what a killed process left.
 *   A reply already kept is never asked for again; its node is written only if the graph does
 *   not have it (the node's id was kept with the reply), so each request is answered once.
 * The replies are written on the main thread, not in the memory worker: they stream from the
 * LLM connectors (async I/O, idle for the event loop), search the MemoryPack with the main
 * thread's kept indexes, and write a node through the graph service, which only the main
 * thread has.
 */
export class ExternalMessages {
  private readonly line = new WorkLine(ANSWERING_AT_ONCE, (e) => this.deps.log(`[memory] an external reply: ${e}`))

  constructor(private readonly deps: ExternalDeps) {}

  receive(input: ExternalMessageInput): { unit_id: number; persona_id: string } {
    const persona = this.persona(input.persona_id)
    const store = this.deps.store(persona.id)
    const request: StoredRequest = { ...input, language: uiLanguage(this.deps.settings.get().language) }
    const unitId = store.db
      .transaction(() => {
        const id = store.createUnit({
          kind: UnitKind.EPISODE,
          source: input.type,
          state: UnitState.RAW,
          payload: { user_text: episodeUserText(request), reply_text: null },
        })
        recordRequest(store, id, request)
        return id
      })
      .immediate()
    this.line.add(() => this.answer(persona.id, unitId))
    return { unit_id: unitId, persona_id: persona.id }
  }

  /**
   * Finishes the requests these memories hold open; only with no other live process on the home.
   * Begun once start-up is over, so the app's listeners hear the first reply published.
   */
  resume(memories: Iterable<[personaId: string, store: MemoryStore]>): void {
    const open = [...memories].flatMap(([personaId, store]) =>
      openRequests(store).map((r) => ({ personaId, store, r })),
    )
    if (open.length === 0) return
    setImmediate(() => {
      for (const { personaId, store, r } of open) {
        if (r.status === RequestStatus.replied) {
          this.line.add(async () => this.showReplied(personaId, store, r))
          continue
        }
        if (r.status === RequestStatus.answering) releaseRequest(store, r.unit_id) // the dead process's
        this.line.add(() => this.answer(personaId, r.unit_id), r.run_after * 1000 - Date.now())
      }
    })
  }

  /** Stops answering: replies under way are cut and wait, stored, for the next start. */
  dispose(): Promise<void> {
    return this.line.stop()
  }

  private async answer(personaId: string, unitId: number): Promise<void> {
    const persona = this.deps.personas.find(personaId)
    if (!persona) return // deleted with its memory meanwhile
    const store = this.deps.store(personaId)
    const open = findRequest(store, unitId)
    if (!open || !claimRequest(store, unitId)) return // its unit deleted, or already answered
    let reply: { text: string; imageSummary: string | null }
    try {
      reply = await this.compose(persona, open.request)
    } catch (e) {
      if (this.line.stopped) releaseRequest(store, unitId)
      else this.failed(persona, store, open, e)
      return
    }
    const node = this.planNode(persona, open.request, reply.text)
    store.db
      .transaction(() => {
        store.editPayload(
          unitId,
          { reply_text: reply.text, ...(reply.imageSummary ? { image_summary: reply.imageSummary } : {}) },
          open.request.type,
        )
        this.deps.queueJobs(personaId, unitId, open.request.type === 'meta_request')
        markReplied(store, unitId, node.id)
      })
      .immediate()
    node.write()
    this.done(persona.id, store, open.request, unitId, reply.text)
  }

  private async compose(persona: Persona, request: StoredRequest) {
    const imageSummary = request.images?.length ? await this.describe(persona, request) : null
    const pack = await this.deps.pack(persona.id, packQuery(request))
    const text = await this.complete('chat', persona.chat_model, replyMessages(persona, request, pack, imageSummary))
    return { text, imageSummary }
  }

  /** The pictures in words, by the persona's vision model; none set up: no summary. */
  private async describe(persona: Persona, request: StoredRequest): Promise<string | null> {
    try {
      return await this.complete('vision', persona.vision_model, describeMessages(request.images!, request.language))
    } catch (e) {
      if (this.line.stopped) throw e
      this.deps.log(`[memory] no picture summary for ${persona.name}: ${e instanceof Error ? e.message : String(e)}`)
      return null
    }
  }

  private async complete(role: 'chat' | 'vision', personaModel: string | null, messages: ChatMessage[]) {
    const ref = resolveModel(role, personaModel, this.deps.env, this.deps.settings.get().chat.model)
    return (await completeText(this.deps.llm, ref, messages, { signal: this.line.signal })).trim()
  }

  /** The reply's node in the persona's External flow, given its id now and written later. */
  private planNode(persona: Persona, request: StoredRequest, reply: string) {
    const target = this.deps.graph.personaFlowTail(EXTERNAL_FLOW_NAME, persona.id)
    return this.deps.graph.planNode({
      flow_id: target.flow_id,
      prompt: externalNodePrompt(request),
      response: reply,
      ...(target.parent_id ? { parent_ids: [target.parent_id] } : {}),
    })
  }

  /** A reply kept before a crash: its node is written unless the graph has it already. */
  private showReplied(personaId: string, store: MemoryStore, open: OpenRequest): void {
    const persona = this.deps.personas.find(personaId)
    if (!persona) return
    const reply = String(store.payload({ id: open.unit_id, kind: UnitKind.EPISODE }).reply_text ?? '')
    if (!open.node_id || !this.deps.graph.findNode(open.node_id)) {
      const node = this.planNode(persona, open.request, reply)
      markReplied(store, open.unit_id, node.id) // the new id first: a crash now still finds it
      node.write()
    }
    this.done(personaId, store, open.request, open.unit_id, reply)
  }

  private done(personaId: string, store: MemoryStore, request: StoredRequest, unitId: number, reply: string) {
    markDone(store, unitId)
    this.deps.bus.emit('external_reply', {
      unit_id: unitId,
      persona_id: personaId,
      type: request.type,
      data: replyData(request, reply),
    })
  }

  /** The model failed: another try after a back-off, or (refused, or out of tries) the reason kept and published. */
  private failed(persona: Persona, store: MemoryStore, open: OpenRequest, e: unknown): void {
    const message = e instanceof Error ? e.message : String(e)
    const maxTries = this.deps.retry?.maxTries ?? 5
    const unitId = open.unit_id
    if (isRetryable(e) && open.tries + 1 < maxTries) {
      const waitSeconds = (this.deps.retry?.backoffSeconds ?? 5) * 2 ** open.tries
      retryRequestLater(store, unitId, message, nowSeconds() + waitSeconds)
      this.deps.log(`[memory] ${open.request.type} #${unitId} for ${persona.name}: ${message}; trying again`)
      this.line.add(() => this.answer(persona.id, unitId), waitSeconds * 1000)
      return
    }
    failRequest(store, unitId, message)
    this.deps.log(`[memory] ${open.request.type} #${unitId} for ${persona.name} got no reply: ${message}`)
    this.deps.bus.emit('external_reply', {
      unit_id: unitId,
      persona_id: persona.id,
      type: open.request.type,
      data: { error: message },
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
