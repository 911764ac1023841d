import { EXTERNAL_FLOW_NAME, type Persona } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { GraphService } from '../graph/graphService'
import type { EventBus } from '../kernel/events'
import { isRetryable } from '../kernel/jobs/handlers'
import { uiLanguage } from '../kernel/language'
import { WorkLine } from '../kernel/workLine'
import { completeText } from '../llm/completeText'
import { resolveModel } from '../llm/models'
import type { LlmRegistry } from '../llm/providers'
import {
  RequestStatus,
  type AnsweredRequest,
  type OpenRequest,
  type ProgramRequests,
  type StoredRequest,
} from '../memory/memory'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import type { ChatService } from './chatService'
import { describeMessages, labelledSource, replyData, requestAsk, requestLabel, requestWords } from './requestPrompt'
import type { AnsweredRequests, TurnEnd } from './turn'

export interface ExternalRepliesDeps {
  chat: ChatService
  graph: GraphService
  personas: PersonaService
  settings: SettingsService
  llm: LlmRegistry
  bus: EventBus
  env: NodeJS.ProcessEnv
  /** Where the requests are stored, and their replies kept (memory's). */
  requests: ProgramRequests
  /** Tries and first back-off (seconds, doubling) for a reply the model failed; memory jobs' settings. */
  retry?: { maxTries?: number; backoffSeconds?: number }
  log: (message: string) => void
}

/** Replies written at once: a restart after a crash would otherwise fire every pending one together. */
const ANSWERING_AT_ONCE = 4

/**
 * The persona's replies to notifications and meta requests from other programs (seed 004),
 * through chat's one reply path: each is a turn of the persona's External flow, its context built
 * as any turn's (budget, calibration, lorebook, tools, memory), streamed into its node, stoppable,
 * its sent context kept for the inspector. Durable, as memory stores the requests
 * (memory/requests/programRequests.ts):
 * - answer: the request claimed; the pictures in words; the node named in the request, then
 *   written below the flow's last node; chat answers into it; the reply kept in the episode with
 *   its jobs (one transaction); the request marked done; `external_reply` published;
 * - resume (start-up, no other live process on the home): finishes what a killed process left.
 *   A request answers into the node it named, never beside it; a reply that reached its node or
 *   its episode before the crash is never asked for again, so each request is answered once.
 */
export class ExternalReplies implements AnsweredRequests {
  private readonly line = new WorkLine(ANSWERING_AT_ONCE, (e) => this.deps.log(`[chat] an external reply: ${e}`))

  constructor(private readonly deps: ExternalRepliesDeps) {}

  /** Answers a stored request when a place in the line is free. */
  answerSoon(personaId: string, unitId: number): void {
    this.line.add(() => this.answer(personaId, unitId))
  }

  /**
   * Finishes the requests the open memories hold; only with no other live process on the home.
   * Begun once start-up is over, so the app's listeners hear the first reply published.
   */
  resume(): void {
    const open = this.deps.requests.open()
    if (open.length === 0) return
    setImmediate(() => {
      for (const { personaId, request: r } of open) {
        if (r.status === RequestStatus.replied) {
          this.line.add(async () => this.showReplied(personaId, r))
          continue
        }
        if (r.status === RequestStatus.answering) this.deps.requests.release(personaId, r.unit_id) // the dead process's
        this.line.add(() => this.answer(personaId, r.unit_id), r.run_after * 1000 - Date.now())
      }
    })
  }

  /**
   * The request a node answered, asked again into another node (Regenerate): the same question,
   * rebuilt from what its episode keeps (the notification's words, its pictures in words) and the
   * label naming its source, in the language the app speaks now. A meta request's words were never
   * kept: it cannot be asked again.
   */
  askedIn(nodeId: string, personaId: string): ReturnType<AnsweredRequests['askedIn']> {
    let asked: AnsweredRequest | null
    try {
      asked = this.deps.requests.requestAnsweredIn(personaId, nodeId)
    } catch (e) {
      // A memory that cannot be read must not cost the user their Regenerate: the label is asked.
      this.deps.log(`[chat] no request found for ${nodeId}: ${String(e)}`)
      return null
    }
    if (!asked) return null
    if (asked.type === 'meta_request')
      throw new AppError(
        'conflict',
        "this reply answered another program's meta request, whose words are not kept: it cannot be asked again",
        { key: 'meta_request_not_kept' },
      )
    const source = labelledSource(this.deps.graph.getNode(nodeId).prompt, asked.text)
    if (source === null) return null
    const language = uiLanguage(this.deps.settings.get().language)
    const request: StoredRequest = { type: 'notification', source_system: source, text: asked.text, language }
    return (into) => ({
      ask: requestAsk(request, asked.imageSummary),
      words: requestWords(request),
      secret: false,
      triedAgainByCaller: false,
      keep: (text) => {
        try {
          const reply = { text, imageSummary: asked.imageSummary, ...into }
          return this.deps.requests.keepAnswerAgain(personaId, asked, reply)
        } catch (e) {
          this.deps.log(`[chat] the reply asked again in ${into.nodeId} was not kept: ${String(e)}`)
          return null
        }
      },
      // Stopped or failed before it was kept: the node still answers the request, for its
      // Continue and Regenerate (its own line told the program already, when it first answered).
      ended: (end) => {
        if (end.state === 'done') return
        try {
          this.deps.requests.keepAskedWithoutReply(personaId, asked, into)
        } catch (e) {
          this.deps.log(`[chat] the request asked again in ${into.nodeId} was not linked to it: ${String(e)}`)
        }
      },
    })
  }

  /** Stops answering: replies under way are cut and wait, stored, for the next start. */
  dispose(): Promise<void> {
    return this.line.stop()
  }

  private async answer(personaId: string, unitId: number): Promise<void> {
    const { requests, graph } = this.deps
    const persona = this.deps.personas.find(personaId)
    const open = requests.find(personaId, unitId)
    if (!persona || !open || !requests.claim(personaId, unitId)) return // deleted, or answered already
    const planned = open.node_id ? graph.findNode(open.node_id) : null
    // Chat finished the reply in its node (it names the model), and the process died before the episode kept it.
    if (planned?.status === 'complete' && planned.metadata.model) {
      this.keep(persona.id, open, { text: planned.response, imageSummary: null, nodeId: planned.id })
      return this.done(persona.id, open.request, unitId, planned.response)
    }
    let imageSummary: string | null
    try {
      imageSummary = open.request.images?.length ? await this.describe(persona, open.request) : null
    } catch {
      return requests.release(personaId, unitId) // only the app stopping cuts the description short
    }
    if (this.line.stopped) return requests.release(personaId, unitId)
    const nodeId = planned?.id ?? this.writeNode(persona.id, open)
    const stop = () => this.deps.chat.stop(nodeId)
    this.line.signal.addEventListener('abort', stop)
    let end: TurnEnd
    try {
      end = await this.deps.chat.answerRequest({
        nodeId,
        flowId: graph.flowOf(nodeId),
        personaId,
        prompt: requestLabel(open.request),
        request: {
          ask: requestAsk(open.request, imageSummary),
          words: requestWords(open.request),
          secret: open.request.type === 'meta_request',
          triedAgainByCaller: true,
          keep: (text) => this.keep(personaId, open, { text, imageSummary, nodeId }),
        },
      })
    } catch (e) {
      end = { state: 'failed', text: '', error: e }
    } finally {
      this.line.signal.removeEventListener('abort', stop)
    }
    if (end.state === 'done') this.done(personaId, open.request, unitId, end.text)
    else if (this.line.stopped) requests.release(personaId, unitId)
    // Stopped by the user (or its node deleted): given up, not tried again.
    else this.failed(persona, open, end.state === 'failed' ? end.error : 'stopped by the user', end.state === 'failed')
  }

  /**
   * A new node below the last of the persona's External flow, named in the request before it is
   * written (a crash now still finds it): a restart answers into it, or finds it written.
   */
  private writeNode(personaId: string, open: OpenRequest, response?: string): string {
    const target = this.deps.graph.personaFlowTail(EXTERNAL_FLOW_NAME, personaId)
    const node = this.deps.graph.planNode({
      flow_id: target.flow_id,
      prompt: requestLabel(open.request),
      ...(response === undefined ? {} : { response }),
      ...(target.parent_id ? { parent_ids: [target.parent_id] } : {}),
    })
    this.deps.requests.answeredIn(personaId, open.unit_id, { nodeId: node.id, flowId: target.flow_id })
    return node.write().id
  }

  /** The reply into the request's episode; a memory failure must not cost the reply its node. */
  private keep(personaId: string, open: OpenRequest, reply: Parameters<ProgramRequests['keepReply']>[3]) {
    try {
      this.deps.requests.keepReply(personaId, open.unit_id, open.request, reply)
      return open.unit_id
    } catch (e) {
      this.deps.log(`[chat] the reply to ${open.request.type} #${open.unit_id} was not kept: ${String(e)}`)
      return null
    }
  }

  /** The pictures in words, by the persona's vision model; none set up: no summary. */
  private async describe(persona: Persona, request: StoredRequest): Promise<string | null> {
    const ref = resolveModel('vision', persona.vision_model, this.deps.env, this.deps.settings.get().chat.model)
    try {
      const messages = describeMessages(request.images!, request.language)
      return (await completeText(this.deps.llm, ref, messages, { signal: this.line.signal })).trim()
    } catch (e) {
      if (this.line.stopped) throw e
      this.deps.log(`[chat] no picture summary for ${persona.name}: ${e instanceof Error ? e.message : String(e)}`)
      return null
    }
  }

  /** A reply kept before a crash: its node is written unless the graph has it already. */
  private showReplied(personaId: string, open: OpenRequest): void {
    if (!this.deps.personas.find(personaId)) return
    const reply = this.deps.requests.keptReply(personaId, open.unit_id)
    if (!open.node_id || !this.deps.graph.findNode(open.node_id)) this.writeNode(personaId, open, reply)
    this.done(personaId, open.request, open.unit_id, reply)
  }

  private done(personaId: string, request: StoredRequest, unitId: number, reply: string): void {
    this.deps.requests.done(personaId, unitId)
    this.deps.bus.emit('external_reply', {
      unit_id: unitId,
      persona_id: personaId,
      type: request.type,
      data: replyData(request, reply),
    })
  }

  /** The model failed: another try after a back-off, or (refused, or out of tries) the reason kept and published. */
  private failed(persona: Persona, open: OpenRequest, e: unknown, mayRetry: boolean): void {
    const message = e instanceof Error ? e.message : String(e)
    const maxTries = this.deps.retry?.maxTries ?? 5
    const unitId = open.unit_id
    const { requests } = this.deps
    if (mayRetry && isRetryable(e) && open.tries + 1 < maxTries) {
      const waitSeconds = (this.deps.retry?.backoffSeconds ?? 5) * 2 ** open.tries
      requests.retryLater(persona.id, unitId, message, waitSeconds)
      this.deps.log(`[chat] ${open.request.type} #${unitId} for ${persona.name}: ${message}; trying again`)
      this.line.add(() => this.answer(persona.id, unitId), waitSeconds * 1000)
      return
    }
    requests.fail(persona.id, unitId, message)
    this.deps.log(`[chat] ${open.request.type} #${unitId} for ${persona.name} got no reply: ${message}`)
    this.deps.bus.emit('external_reply', {
      unit_id: unitId,
      persona_id: persona.id,
      type: open.request.type,
      data: { error: message },
    })
  }
}
