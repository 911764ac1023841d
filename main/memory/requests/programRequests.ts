import type { ExternalMessageInput, Persona } from '@shared/contract'
import { AppError } from '@shared/errors'
import { uiLanguage } from '../../kernel/language'
import type { PersonaService } from '../../persona/personaService'
import type { SettingsService } from '../../settings/settingsService'
import { UnitKind, UnitState } from '../store/enums'
import {
  claimRequest,
  episodeUserText,
  failRequest,
  findRequest,
  markDone,
  markReplied,
  openRequests,
  recordRequest,
  releaseRequest,
  requestAnsweredIn,
  retryRequestLater,
  setRequestNode,
  unansweredEpisodeFrom,
  type AnsweredRequest,
  type OpenRequest,
  type StoredRequest,
} from './externalRequests'
import { nowSeconds, type MemoryStore } from '../store/store'

export interface ProgramRequestsDeps {
  personas: PersonaService
  settings: SettingsService
  store: (personaId: string) => MemoryStore
  /** The memories open now (at start-up: every persona's on disk). */
  openMemories: () => Array<[personaId: string, store: MemoryStore]>
  /** All of an episode's jobs, or (a meta request) only the embedding. Called inside the reply's transaction. */
  queueJobs: (personaId: string, unitId: number, embeddingOnly: boolean) => void
}

/** A persona's answer, as its episode keeps it. */
export interface KeptReply {
  text: string
  imageSummary: string | null
  /** The External-flow node that shows it. */
  nodeId: string
}

/**
 * Notifications and meta requests from other programs (seed 004), as memory keeps them: the
 * placeholder EPISODE and the request with everything answering needs, stored in one
 * transaction before `{unit_id}` is answered (acknowledged means stored), then the request's
 * state until the persona has answered (externalRequests.ts, migration 0011). Answering is
 * chat's (chat/externalReplies.ts), told of each stored request by `onStored`, which the
 * composition root wires.
 */
export class ProgramRequests {
  private stored: (personaId: string, unitId: number) => void = () => {}

  constructor(private readonly deps: ProgramRequestsDeps) {}

  /** Who answers what is stored; one listener. */
  onStored(listener: (personaId: string, unitId: number) => void): void {
    this.stored = listener
  }

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
    this.stored(persona.id, unitId)
    return { unit_id: unitId, persona_id: persona.id }
  }

  /** Every request not yet done or failed, in every open memory, oldest first per memory. */
  open(): Array<{ personaId: string; request: OpenRequest }> {
    return this.deps
      .openMemories()
      .flatMap(([personaId, store]) => openRequests(store).map((request) => ({ personaId, request })))
  }

  /** One request, open or not; null once its unit (or its persona) was deleted. */
  find(personaId: string, unitId: number): OpenRequest | null {
    if (!this.deps.personas.find(personaId)) return null
    return findRequest(this.deps.store(personaId), unitId)
  }

  /** Waiting → answering; false when it is not waiting. */
  claim(personaId: string, unitId: number): boolean {
    return claimRequest(this.deps.store(personaId), unitId)
  }

  /** Names the node answering it, before the node is written. */
  answeredIn(personaId: string, unitId: number, node: { nodeId: string; flowId: string }): void {
    setRequestNode(this.deps.store(personaId), unitId, node)
  }

  release(personaId: string, unitId: number): void {
    releaseRequest(this.deps.store(personaId), unitId)
  }

  /** The model failed: waiting again, for `waitSeconds`, the try counted. */
  retryLater(personaId: string, unitId: number, error: string, waitSeconds: number): void {
    retryRequestLater(this.deps.store(personaId), unitId, error, nowSeconds() + waitSeconds)
  }

  fail(personaId: string, unitId: number, error: string): void {
    failRequest(this.deps.store(personaId), unitId, error)
  }

  /** The reply into its episode, the episode's jobs queued and the request marked replied, in one transaction. */
  keepReply(personaId: string, unitId: number, request: StoredRequest, reply: KeptReply): void {
    const store = this.deps.store(personaId)
    store.db
      .transaction(() => {
        store.editPayload(
          unitId,
          { reply_text: reply.text, ...(reply.imageSummary ? { image_summary: reply.imageSummary } : {}) },
          request.type,
        )
        this.deps.queueJobs(personaId, unitId, request.type === 'meta_request')
        markReplied(store, unitId, reply.nodeId)
      })
      .immediate()
  }

  /** The request a node answered (its words as its episode keeps them); null for a user's message. */
  requestAnsweredIn(personaId: string, nodeId: string): AnsweredRequest | null {
    if (!this.deps.personas.find(personaId)) return null
    return requestAnsweredIn(this.deps.store(personaId), nodeId)
  }

  /**
   * A request answered again into a node: into another (Regenerate), an episode of its own, of
   * the request's kind, from that node, its jobs queued; so a Regenerate of that node asks it
   * again too. Into its own node, stopped and continued (Continue), the episode from it that waits
   * for a reply takes it: one memory of the request, not a reply-less one beside it. Answers the
   * episode's unit.
   */
  keepAnswerAgain(personaId: string, asked: AnsweredRequest, reply: KeptReply & { flowId: string }): number {
    const store = this.deps.store(personaId)
    return store.db
      .transaction(() => {
        const waiting = unansweredEpisodeFrom(store, reply.nodeId)
        if (waiting !== null) {
          const patch = { reply_text: reply.text, ...(reply.imageSummary ? { image_summary: reply.imageSummary } : {}) }
          store.editPayload(waiting, patch, asked.type)
          this.deps.queueJobs(personaId, waiting, asked.type === 'meta_request')
          return waiting
        }
        return this.askedEpisode(personaId, store, asked, reply, reply.text)
      })
      .immediate()
  }

  /**
   * A request asked again into a node whose reply was stopped (or failed) before it was kept:
   * an episode of the request from that node, waiting for its reply as the first answer's does
   * after a stop, so Continue and Regenerate on that node ask the request again, not its label.
   * Nothing when an episode from the node waits already (a Continue stopped again).
   */
  keepAskedWithoutReply(personaId: string, asked: AnsweredRequest, node: { nodeId: string; flowId: string }): void {
    const store = this.deps.store(personaId)
    store.db
      .transaction(() => {
        if (unansweredEpisodeFrom(store, node.nodeId) === null)
          this.askedEpisode(personaId, store, asked, { ...node, imageSummary: asked.imageSummary }, null)
      })
      .immediate()
  }

  /** The request's episode from `into`, its reply kept (or waiting: null), its jobs queued. */
  private askedEpisode(
    personaId: string,
    store: MemoryStore,
    asked: AnsweredRequest,
    into: { nodeId: string; flowId: string; imageSummary: string | null },
    reply: string | null,
  ): number {
    const id = store.createUnit({
      kind: UnitKind.EPISODE,
      source: asked.type,
      state: UnitState.RAW,
      origin_node_id: into.nodeId,
      origin_flow_id: into.flowId,
      payload: {
        user_text: asked.text,
        ...(reply === null ? {} : { reply_text: reply }),
        ...(into.imageSummary ? { image_summary: into.imageSummary } : {}),
      },
    })
    this.deps.queueJobs(personaId, id, asked.type === 'meta_request')
    return id
  }

  /** The reply a replied request's episode keeps. */
  keptReply(personaId: string, unitId: number): string {
    const payload = this.deps.store(personaId).payload({ id: unitId, kind: UnitKind.EPISODE })
    return String(payload.reply_text ?? '')
  }

  /** Answered and shown: the request's words go (a meta request's were never memory). */
  done(personaId: string, unitId: number): void {
    markDone(this.deps.store(personaId), unitId)
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
