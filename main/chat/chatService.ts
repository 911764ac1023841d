import type { ContextPreview, Node, Parsed, Persona } from '@shared/contract'
import { AppError, toErrorValue } from '@shared/errors'
import type { GraphService } from '../graph/graphService'
import type { EventBus } from '../kernel/events'
import { LlmError } from '../llm/llmError'
import { resolveModel } from '../llm/models'
import type { LlmRegistry } from '../llm/providers'
import { chatWithRetry } from '../llm/retry'
import { tokenCount } from '../kernel/tokens'
import type { TokenCalibration } from '../llm/tokenCalibration'
import type { ChatMessage, ContentPart, ToolCall, ToolSpec, Usage } from '../llm/types'
import type { ChatMemory } from '../memory/memory'
import type { PersonaService } from '../persona/personaService'
import type { SettingsReader, SettingsService } from '../settings/settingsService'
import { uiLanguage } from '../kernel/language'
import { llmErrorText, retryingText } from '../llm/llmErrorText'
import { awaitingFirstText, flushed, MAX_WAIT_MS, whenFree } from '../kernel/afterFirstText'
import { DeltaBatcher } from './deltaBatcher'
import { addUsage, replyStats } from './replyStats'
import type { AnsweredRequests, RequestTurn, Turn, TurnEnd } from './turn'
import { redactedContext } from './requestPrompt'
import { budgetOf, pairText } from '../graph/flowContext'
import type { LorebookService } from '../lorebook/lorebookService'
import { promptContext, type FlowStory, type PromptContextDeps, type SceneSource } from './promptContext'

export type { FlowStory, SceneSource }
import { turnMessages } from './turnMessages'
import { nodeDetails, nodeDetailsTool } from './nodeDetailsTool'
import { chooseSpeaker, isScene, witnesses } from './groupScene'

export interface ChatOptions {
  env: NodeJS.ProcessEnv
  /** Whose voice: the flow's persona gives the system text and the chat model. */
  personas?: PersonaService
  /** The persona's long-term memory: a MemoryPack before each reply, an episode after it. */
  memory?: ChatMemory | null
  /** How often streamed text goes out as one `node_stream` event. */
  batchMs?: number
  /** How often the partial reply is written to the database, so a crash loses little. */
  saveEveryMs?: number
  retry?: { attempts?: number; baseDelayMs?: number }
  /** Learns how each chat model counts tokens from the usage it reports, and sizes contexts by it. */
  calibration?: TokenCalibration | null
  /** Lorebooks and Author's Notes: what they add to each prompt's context. */
  lore?: LorebookService | null
}

/** Who is calling a tool: the node being answered, its flow and persona. */
export interface ChatToolContext {
  nodeId: string
  flowId: string
  personaId: string | null
  /** Aborted when the user stops the reply: a tool still running (or waiting for approval) gives up. */
  signal: AbortSignal
}

export interface ChatToolOutcome {
  /** What the model reads as the tool's answer. */
  content: string
  isError?: boolean
  /** Images the model should see next (a viewed picture), sent as a user message after the tool answers. */
  images?: Array<{ mime: string; data_base64: string }>
  /** The provider keeps the call on the node itself (MCP calls, with their approval): no one else records it. */
  kept?: boolean
}

/** Tools another feature offers the model (the world's item tools), with their executor. */
export interface ChatToolProvider {
  /** May start what it needs first (an MCP server is started when its tools are first offered). */
  tools(ctx: ChatToolContext): ToolSpec[] | Promise<ToolSpec[]>
  /** The tools it would offer now, starting nothing (for a preview); tools() when absent. */
  offered?(ctx: Pick<ChatToolContext, 'personaId' | 'flowId'>): ToolSpec[]
  /** Runs the call if the tool is this provider's; null otherwise. */
  execute(call: ToolCall, ctx: ChatToolContext): Promise<ChatToolOutcome | null>
  /** Told of every executed call, built-in ones too, so it can be recorded on the node. */
  record?(ctx: ChatToolContext, call: ToolCall, outcome: ChatToolOutcome): void
  /**
   * The seed's meta router: when the user's words call for a playbook (view, edit, create a
   * document), its answer replaces the plain chat reply; null means chat as usual.
   */
  playbook?(text: string, ctx: ChatToolContext): Promise<string | null>
}

/** How many times the model may look up node details before it must answer. */
const MAX_TOOL_ROUNDS = 3
/** How soon a node write that found the write lock held tries again (writeWhileWaiting). */
const BUSY_RETRY_MS = 1

/**
 * Streaming chat on the main thread (async I/O only, never blocking it): the node exists
 * before the first token, text streams out in batches, and whatever arrived is kept when the
 * stream is stopped or cut.
 */
export class ChatService {
  private readonly running = new Map<string, AbortController>()
  /**
   * Each streaming reply's text as sent to the windows so far (its `node_stream` pieces): what a
   * window reading the node mid-reply gets (GraphService.readsLiveTextFrom), the pieces after it
   * following. Not the text received: what the batcher still holds would then come twice.
   */
  private readonly sent = new Map<string, { text: string }>()
  private readonly toolProviders = new Set<ChatToolProvider>()
  private scenes: SceneSource | null = null
  private answered: AnsweredRequests | null = null

  constructor(
    private readonly graph: GraphService,
    private readonly settings: SettingsService,
    private readonly llm: LlmRegistry,
    private readonly bus: EventBus,
    private readonly options: ChatOptions,
  ) {
    // A reply whose node was deleted (or undone away) has nowhere to go: its stream stops.
    graph.onNodesRemoved((ids) => {
      for (const id of ids) this.stop(id)
    })
  }

  /**
   * Answers once the node is written: after the model's request has left (the flow and parents
   * are checked first, so a bad message changes nothing). Writing it first (a transaction, its
   * events) kept the request waiting ~1 ms.
   */
  async send(input: Parsed<'chat_send'>, firstText?: (text: string) => void): Promise<{ node_id: string }> {
    const parentIds = [...new Set([...(input.parent_id ? [input.parent_id] : []), ...(input.parent_ids ?? [])])]
    return this.answer({ ...input, parentIds, firstText })
  }

  /** A member of a group scene goes on below a reply without a word from the user (a node with no prompt). */
  async nextSpeaker(input: Parsed<'chat_next_speaker'>): Promise<{ node_id: string; persona_id: string }> {
    if (!isScene(this.graph.flowInfo(input.flow_id)))
      throw new AppError('bad_input', 'only a group scene goes on without a prompt: add members to the conversation')
    const sent = await this.answer({ ...input, prompt: '', parentIds: [input.parent_id] })
    return { node_id: sent.node_id, persona_id: sent.personaId! }
  }

  /** A new node below `parentIds`, answered by the persona chosen for it (a scene's turn order, or the caller's). */
  private async answer(input: {
    flow_id: string
    parentIds: string[]
    prompt: string
    images?: Parsed<'chat_send'>['images']
    persona_id?: string
    position?: Parsed<'chat_send'>['position']
    version_of?: string
    firstText?: (text: string) => void
  }): Promise<{ node_id: string; personaId: string | undefined }> {
    const { parentIds } = input
    const node = this.graph.planNode(
      { flow_id: input.flow_id, prompt: input.prompt, parent_ids: parentIds, position: input.position },
      input.version_of,
    )
    const personaId = this.speakerFor(input.flow_id, input.prompt, parentIds, input.persona_id, node.flow)
    const pictures = (input.images ?? []).flatMap((i) => (i.item_id ? [{ item_id: i.item_id, mime: i.mime }] : []))
    await this.start({
      nodeId: node.id,
      flowId: input.flow_id,
      flow: node.flow,
      personaId,
      parentIds,
      prompt: input.prompt,
      images: input.images ?? [],
      firstText: input.firstText,
      write: (reply, ifFree) => {
        if (ifFree ? !node.writeIfFree(reply) : !node.write(reply)) return false
        if (pictures.length > 0) this.graph.setImages(node.id, pictures)
        return true
      },
    })
    return { node_id: node.id, personaId }
  }

  /**
   * Who answers below these parents: in a group scene the member picked, else the one its turn
   * order chooses after the newest parent's speaker; elsewhere the persona picked, if any.
   */
  private speakerFor(
    flowId: string,
    prompt: string,
    parentIds: readonly string[],
    picked?: string,
    flow = this.graph.flowInfo(flowId),
  ): string | undefined {
    if (!isScene(flow)) return picked
    const parent = this.graph
      .getNodes(parentIds)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
      .at(-1)
    const speaker = chooseSpeaker(flow, { prompt, parent: parent ?? null, picked, nameOf: (id) => this.nameOf(id) })
    if (!speaker)
      throw new AppError('conflict', 'every member of this scene is muted: pick one to speak', {
        key: 'scene_all_muted',
      })
    return speaker
  }

  private nameOf(personaId: string): string | undefined {
    return this.options.personas?.find(personaId)?.name
  }

  retry(input: Parsed<'chat_retry'>): { node_id: string } {
    const original = this.graph.getNode(input.node_id)
    const flowOfOriginal = this.graph.flowOf(original.id, input.flow_id)
    // The same voice again, unless another member of the scene is asked (a swipe to someone else).
    const personaId = input.persona_id
      ? this.speakerFor(flowOfOriginal, original.prompt, [], input.persona_id)
      : original.metadata.speaker_id
    // A program's request is asked again, not the label its node shows (asked before the sibling
    // is made: one that cannot be asked again changes nothing).
    const asked = this.askedIn(original, flowOfOriginal)
    const sibling = this.graph.createBranch({
      node_id: original.id,
      prompt: original.prompt,
      flow_id: input.flow_id,
      position: input.position,
    })
    const flowId = this.graph.flowOf(sibling.id, input.flow_id)
    const parentIds = this.graph.parentsOf(flowId, sibling.id)
    const request = asked?.({ nodeId: sibling.id, flowId })
    void this.start({
      nodeId: sibling.id,
      flowId,
      parentIds,
      prompt: original.prompt,
      images: [],
      personaId,
      request,
    })
    return { node_id: sibling.id }
  }

  continue(input: Parsed<'chat_continue'>): { node_id: string } {
    const node = this.graph.getNode(input.node_id)
    if (this.running.has(node.id))
      throw new AppError('conflict', 'this reply is still streaming', { key: 'reply_streaming' })
    if (node.status === 'complete')
      throw new AppError('conflict', 'this reply is already complete', { key: 'reply_complete' })
    const flowId = this.graph.flowOf(node.id, input.flow_id)
    // As Regenerate: a program's request is continued, not the label its node shows.
    const asked = this.askedIn(node, flowId)
    void this.start({
      nodeId: node.id,
      flowId,
      personaId: node.metadata.speaker_id,
      parentIds: this.graph.parentsOf(flowId, node.id),
      prompt: node.prompt,
      images: [],
      continueFrom: node.response,
      request: asked?.({ nodeId: node.id, flowId }),
    })
    return { node_id: node.id }
  }

  /** The program's request `node` answered, to be asked again (null: the user's own words); throws when it cannot be. */
  private askedIn(node: Node, flowId: string): ReturnType<AnsweredRequests['askedIn']> {
    const spoke = node.metadata.speaker_id ?? this.graph.personaOf(flowId)
    return spoke ? (this.answered?.askedIn(node.id, spoke) ?? null) : null
  }

  /**
   * Another program's request (a notification, a meta request: externalReplies.ts) answered in
   * its node, written already, as any reply is: streamed, stoppable, its sent context kept.
   * Resolves with how the turn ended; rejects when the node cannot take the reply.
   */
  answerRequest(input: {
    nodeId: string
    flowId: string
    personaId: string
    prompt: string
    request: Omit<RequestTurn, 'ended'>
  }): Promise<TurnEnd> {
    const flowId = this.graph.flowOf(input.nodeId, input.flowId)
    return new Promise<TurnEnd>((ended) => {
      void this.start({
        ...input,
        flowId,
        parentIds: this.graph.parentsOf(flowId, input.nodeId),
        images: [],
        request: { ...input.request, ended },
      })
    })
  }

  /**
   * Readies in the background the tokenizer's first count (of the tools every reply is offered),
   * which the first reply after start-up paid for before its request could leave. The model
   * connections are readied by the LLM registry (LlmRegistry.warmUp).
   */
  warmUp(): void {
    setImmediate(async () => {
      const ctx = { nodeId: '', flowId: '', personaId: null, signal: new AbortController().signal }
      toolsTokens(await this.toolsFor(ctx, false).catch(() => [nodeDetailsTool]))
    })
  }

  /** What the model would receive for a prompt below `parent_ids`: built exactly as a sent turn is. */
  async previewContext(input: Parsed<'build_context'>): Promise<ContextPreview> {
    const persona = this.options.personas?.find(input.persona_id ?? this.graph.personaOf(input.flow_id)) ?? null
    const ctx = {
      nodeId: '',
      flowId: input.flow_id,
      personaId: persona?.id ?? null,
      signal: new AbortController().signal,
    }
    return promptContext(this.contextDeps(), {
      flowId: input.flow_id,
      parentIds: input.parent_ids ?? [],
      prompt: input.prompt,
      persona,
      nodeId: null,
      calibration: this.calibrationFor(input.flow_id, persona),
      toolTokens: toolsTokens(await this.toolsFor(ctx, false)),
    })
  }

  /** The tools a reply is offered: the node lookup and every provider's; `start` lets MCP servers start. */
  private async toolsFor(ctx: ChatToolContext, start: boolean): Promise<ToolSpec[]> {
    const offered = [...this.toolProviders].map((p) => (!start && p.offered ? p.offered(ctx) : p.tools(ctx)))
    return [nodeDetailsTool, ...(await Promise.all(offered)).flat()]
  }

  /** The chat model a turn in this flow goes to: the story's choice, else the persona's, else the default. */
  private chatModel(
    flowId: string,
    persona: Persona | null,
    settings: SettingsReader = this.settings,
    story = this.scenes?.storyOf(flowId) ?? null,
  ) {
    const storyModel = story?.chatModel() ?? null
    return resolveModel('chat', storyModel ?? persona?.chat_model, this.options.env, settings.get().chat.model)
  }

  private calibrationFor(flowId: string, persona: Persona | null) {
    try {
      const ref = this.chatModel(flowId, persona)
      return this.options.calibration?.of(`${ref.provider}:${ref.model}`) ?? null
    } catch {
      return null // no chat model set up yet: the preview counts as we do
    }
  }

  /** Where Regenerate finds the program's request a node answered (one source at a time). */
  useAnsweredRequests(source: AnsweredRequests | null): void {
    this.answered = source
  }

  /** Story mode shapes the context of its flows (one source at a time). */
  useScenes(source: SceneSource | null): void {
    this.scenes = source
  }

  private contextDeps(settings: SettingsReader = this.settings): PromptContextDeps {
    return {
      graph: this.graph,
      settings,
      memory: this.options.memory ?? null,
      scenes: this.scenes,
      lore: this.options.lore ?? null,
      personas: this.options.personas ?? null,
    }
  }

  /** Adds tools the model may call; returns a function that removes them. */
  registerTools(provider: ChatToolProvider): () => void {
    this.toolProviders.add(provider)
    return () => this.toolProviders.delete(provider)
  }

  /** The text a streaming reply has sent to the windows so far; undefined when no reply streams into the node. */
  sentSoFar(nodeId: string): string | undefined {
    return this.sent.get(nodeId)?.text
  }

  stop(nodeId: string): { stopped: boolean } {
    const controller = this.running.get(nodeId)
    controller?.abort()
    return { stopped: controller !== undefined }
  }

  /** Stops every stream (shutting down) and waits for their partial text to be saved. */
  async stopAll(): Promise<void> {
    for (const c of this.running.values()) c.abort()
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 10))
  }

  /** The reply no longer runs: unless the node runs another already (a Continue right after the end). */
  private release(nodeId: string, controller: AbortController): void {
    if (this.running.get(nodeId) === controller) this.running.delete(nodeId)
  }

  /** Starts the reply; done when its node is written and marked streaming (or failed to be). */
  private start(turn: Turn): Promise<void> {
    const controller = new AbortController()
    this.running.set(turn.nodeId, controller)
    let node: 'unwritten' | 'written' | 'failed' = 'unwritten'
    const writeNode = (ifFree = false): boolean | 'busy' => {
      if (node !== 'unwritten') return node === 'written'
      node = 'failed'
      // Every reply with a persona names it: in a group scene that is who spoke.
      const speaker = turn.personaId ?? this.graph.personaOf(turn.flowId) ?? undefined
      const reply = { status: 'streaming' as const, response: turn.continueFrom ?? '', speaker_id: speaker }
      // A new message's node is written streaming, its event saying so; an existing one is marked.
      if (turn.write) {
        if (!turn.write(reply, ifFree)) {
          node = 'unwritten'
          return 'busy'
        }
      } else {
        this.graph.setReply(turn.nodeId, reply)
        this.emitNode(turn.nodeId)
      }
      this.bus.emit('chat_status', { node_id: turn.nodeId, state: 'waiting' })
      node = 'written'
      return true
    }
    if (!turn.write)
      try {
        writeNode() // an existing node: marked streaming at once, a failure is the caller's
      } catch (e) {
        this.running.delete(turn.nodeId)
        throw e
      }
    return new Promise<void>((resolve, reject) => {
      const open = (ifFree = false) => {
        try {
          const written = writeNode(ifFree)
          if (written !== true) return written
          resolve()
          return true
        } catch (e) {
          // Nothing to answer into: the request is called off, and the caller told why.
          controller.abort()
          reject(e)
          return false
        }
      }
      void this.stream(turn, controller, open).finally(() => this.release(turn.nodeId, controller))
    })
  }

  /**
   * `open` writes the node (a new message) and marks it streaming: called once the request has
   * left, or before anything else is written or said about the node. With `ifFree` it writes
   * only if no one holds the write lock now ('busy' if one does).
   */
  private async stream(
    turn: Turn,
    controller: AbortController,
    open: (ifFree?: boolean) => boolean | 'busy',
  ): Promise<void> {
    const { nodeId, request } = turn
    const graph = this.graph
    let end: TurnEnd = { state: 'failed', text: '', error: new Error('the reply ended before it was answered') }
    let text = turn.continueFrom ?? ''
    let modelRef = ''
    let usage: Usage | null = null
    const started = performance.now()
    let firstAt: number | null = null
    let savedAt = started
    // Saved for the inspector once the request is on its way (after the reply's first text has
    // gone out, or when the turn ends), not before: writing it first kept the model waiting, and
    // writing it beside the first text kept that text from leaving until the write was done.
    let unsaved: ContextPreview | null = null
    let firstTextOut = () => {}
    const saveSentContext = () => {
      if (unsaved) graph.saveSentContext(nodeId, unsaved)
      unsaved = null
    }
    let saveQueued = false
    const saveSentContextSoon = () => {
      if (!unsaved || saveQueued) return
      saveQueued = true
      setImmediate(saveSentContext)
    }
    // A new message's node is written in the next turn of the event loop: the request leaves in
    // this one, unless something before it waits (an embedding model, a playbook), and then the
    // node does not wait with it. A retried or continued node is written already: open() just
    // says so. A caller that takes the first text itself (the HTTP API: turn.firstText) has its
    // node written when that text comes, or MAX_WAIT_MS after the request left (below): written
    // in the next turn, the write (~1 ms) was in the way of a model answering at once, whose
    // text had come meanwhile.
    if (!turn.firstText) setImmediate(open)
    // Written while the model thinks, but never by waiting for the write lock: the wait (up to the
    // busy timeout, in 0.2 ms sleeps that hold the thread) kept the model's first text, arriving
    // meanwhile, from going out. Held, it is tried again a moment later, or written with that text.
    const writeWhileWaiting = () => {
      if (open(true) === 'busy') setTimeout(writeWhileWaiting, BUSY_RETRY_MS)
    }
    const sent = { text: turn.continueFrom ?? '' }
    this.sent.set(nodeId, sent)
    const batcher = new DeltaBatcher(this.options.batchMs ?? 50, (delta) => {
      sent.text += delta
      this.bus.emit('node_stream', { node_id: nodeId, delta })
    })
    try {
      // The flow is read once for the turn: its persona, its budget and its scene (promptContext).
      const flow = turn.flow ?? this.graph.flowInfo(turn.flowId)
      const persona = this.options.personas?.find(turn.personaId ?? flow.persona_id) ?? null
      // Read once for the turn (its model, budget, context and lorebooks each ask).
      const settings = this.settings.snapshot()
      const defaults = settings.get().chat
      const story = this.scenes?.storyOf(turn.flowId) ?? null
      const ref = this.chatModel(turn.flowId, persona, settings, story)
      modelRef = `${ref.provider}:${ref.model}`
      const connector = this.llm.connector(ref.provider)
      const calibration = this.options.calibration?.of(modelRef) ?? null
      const budget = budgetOf(flow, settings)
      const retry = {
        ...this.options.retry,
        // A program's request is tried again by its own line, counted in its row (externalReplies.ts).
        ...(request?.triedAgainByCaller ? { attempts: 1 } : {}),
        signal: controller.signal,
        onRetry: (ms: number, e: LlmError) =>
          this.bus.emit('chat_status', {
            node_id: nodeId,
            state: 'retrying',
            message: retryingText(e.message, Math.ceil(ms / 1000), this.language()),
          }),
      }
      const toolContext: ChatToolContext = {
        nodeId,
        flowId: turn.flowId,
        personaId: persona?.id ?? null,
        signal: controller.signal,
      }
      // The tools go beside the messages, so the context leaves room for their schemas.
      let tools: ToolSpec[] | undefined = await this.toolsFor(toolContext, true)
      const { messages, context } = await turnMessages(this.contextDeps(settings), turn, {
        persona,
        calibration,
        toolTokens: toolsTokens(tools),
        flow,
        story,
      })
      if (!turn.continueFrom) unsaved = request?.secret ? redactedContext(context, request.ask) : context
      // Playbooks answer the user's own words, never a program's.
      const routed =
        persona && !turn.continueFrom && !request ? await this.playbookAnswer(turn.prompt, toolContext) : null
      if (routed !== null) {
        if (!open()) throw new LlmError('aborted', 'the node could not be written')
        firstAt = performance.now()
        text += routed
        batcher.push(routed)
        saveSentContext()
      }
      let requests = 0
      // Rounds: the model may call get_node_details a few times before it answers.
      for (let round = routed === null ? 0 : MAX_TOOL_ROUNDS + 1; round <= MAX_TOOL_ROUNDS; round++) {
        const calls: ToolCall[] = []
        let roundText = ''
        try {
          requests++
          if (requests === 1) {
            firstTextOut = awaitingFirstText()
            // Counted from the request, which leaves in this turn: counted from the turn's start,
            // the wait was over before the context was built, and the write came first again.
            if (turn.firstText) setTimeout(writeWhileWaiting, MAX_WAIT_MS)
          }
          const events = chatWithRetry(
            () =>
              connector.chat({
                model: ref.model,
                messages,
                tools,
                temperature: persona?.temperature ?? defaults.temperature ?? undefined,
                maxTokens: persona?.max_tokens ?? defaults.max_tokens ?? undefined,
                contextTokens: budget,
                signal: controller.signal,
              }),
            retry,
          )
          for await (const event of events) {
            if (event.type === 'delta') {
              if (firstAt === null) {
                turn.firstText?.(event.text)
                if (!open()) break // the node could not be written: the request is called off
                firstAt = performance.now()
                this.bus.emit('chat_status', { node_id: nodeId, state: 'streaming' })
              }
              text += event.text
              roundText += event.text
              batcher.push(event.text)
              firstTextOut()
              saveSentContextSoon()
              if (performance.now() - savedAt > (this.options.saveEveryMs ?? 1000)) {
                graph.setReply(nodeId, { status: 'streaming', response: text })
                savedAt = performance.now()
              }
            } else if (event.type === 'tool_call') calls.push(event.call)
            else usage = addUsage(usage, event.usage)
          }
        } catch (e) {
          // A server without tool support refuses the request: ask again without tools.
          if (tools && round === 0 && e instanceof LlmError && e.failure === 'bad_request' && !roundText) {
            tools = undefined
            round--
            continue
          }
          throw e
        }
        if (calls.length === 0 || round === MAX_TOOL_ROUNDS) break
        messages.push({ role: 'assistant', content: roundText, tool_calls: calls })
        const seen: ContentPart[] = []
        for (const call of calls) {
          const outcome = await this.runTool(call, toolContext)
          messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content })
          for (const image of outcome.images ?? []) seen.push({ type: 'image', ...image })
        }
        if (seen.length > 0) messages.push({ role: 'user', content: [{ type: 'text', text: '(item_view)' }, ...seen] })
      }
      // Some SDK streams end quietly when aborted rather than throwing.
      if (controller.signal.aborted) throw new LlmError('aborted', 'stopped')
      saveSentContext()
      batcher.flush()
      const stats = replyStats(
        started,
        firstAt,
        performance.now(),
        usage,
        () => sentTokens(context, messages, tools),
        text.slice(turn.continueFrom?.length ?? 0),
      )
      graph.setReply(nodeId, { status: 'complete', response: text, error: null, model: modelRef, stats })
      // The next turn below this node sends it whole, as its parent: counted now, while the user
      // reads, its count is a lookup on that turn's way to its request (a reply of 1,500 tokens
      // took 0.2-0.4 ms to count there).
      whenFree(() => {
        const written = graph.findNode(nodeId)
        if (written) tokenCount(pairText(written))
      })
      // One request's usage is one sample of how the model counts; tool rounds add theirs together.
      if (usage && requests === 1 && routed === null)
        this.options.calibration?.record(modelRef, sentTokens(context, messages, tools), usage.prompt_tokens)
      const unitId = request ? request.keep(text) : persona ? this.remember(persona, turn, text) : null
      end = { state: 'done', text }
      // Work put off until the first text (whenFree: the MemoryPack's "why") has run before a
      // caller told `done` reads it: a reply that arrived whole within one turn, or while another
      // reply still waits for its first text, would be done before it.
      await flushed()
      // No longer running once a window hears it ended: its Continue or Stop must not meet "still streaming".
      this.release(nodeId, controller)
      this.bus.emit('chat_status', { node_id: nodeId, state: 'done', ...(unitId === null ? {} : { unit_id: unitId }) })
    } catch (e) {
      if (!open()) return // no node to keep anything in; the caller of send was told why
      saveSentContext()
      batcher.flush()
      const stopped = controller.signal.aborted || (e instanceof LlmError && e.failure === 'aborted')
      end = stopped ? { state: 'stopped', text } : { state: 'failed', text, error: e }
      const failure = toErrorValue(e)
      const message = stopped ? null : llmErrorText(failure.message, this.language())
      // Text that arrived is never thrown away: the node keeps it, marked incomplete. The node
      // keeps the failure as it was said (English); a window words it in its language, now and
      // after the user switches.
      graph.setReply(nodeId, {
        status: text ? 'incomplete' : stopped ? 'incomplete' : 'error',
        response: text,
        error: stopped ? null : failure.message,
        model: modelRef || undefined,
      })
      this.release(nodeId, controller)
      this.bus.emit('chat_status', {
        node_id: nodeId,
        state: stopped ? 'stopped' : 'failed',
        ...(message ? { message, code: failure.code } : {}),
      })
    } finally {
      firstTextOut()
      // A Continue right after the end may run the node's next reply already.
      if (this.sent.get(nodeId) === sent) this.sent.delete(nodeId)
      if (open()) this.emitNode(nodeId)
      request?.ended(end)
    }
  }

  /**
   * The finished exchange goes into the speaker's memory; in a group scene also into every other
   * member's, as what it witnessed (groupScene.witnesses). Answers the speaker's episode.
   */
  private remember(persona: Persona, turn: Turn, response: string): number | null {
    const memory = this.options.memory
    if (!memory) return null
    const exchange = { nodeId: turn.nodeId, flowId: turn.flowId, prompt: turn.prompt, response }
    const unitId = memory.recordExchange({ ...exchange, personaId: persona.id })
    const flow = this.graph.flowInfo(turn.flowId)
    if (isScene(flow))
      for (const id of witnesses(flow, persona.id))
        if (this.options.personas?.find(id))
          memory.recordExchange({ ...exchange, personaId: id, speaker: persona.name })
    return unitId
  }

  /** The first playbook a provider routes the words to, run to its answer; null for plain chat. */
  private async playbookAnswer(text: string, ctx: ChatToolContext): Promise<string | null> {
    for (const provider of this.toolProviders) {
      try {
        const answer = await provider.playbook?.(text, ctx)
        if (answer !== null && answer !== undefined) return answer
      } catch {
        return null // a playbook the model could not follow: answer as plain chat instead
      }
    }
    return null
  }

  private async runTool(call: ToolCall, ctx: ChatToolContext): Promise<ChatToolOutcome> {
    let outcome: ChatToolOutcome | null = null
    if (call.name === nodeDetailsTool.name) outcome = { content: nodeDetails(this.graph, ctx.flowId, call.arguments) }
    for (const provider of this.toolProviders) {
      if (outcome) break
      try {
        outcome = await provider.execute(call, ctx)
      } catch (e) {
        outcome = { content: `error: ${toErrorValue(e).message}`, isError: true }
      }
    }
    outcome ??= { content: `error: unknown tool ${call.name}`, isError: true }
    for (const provider of this.toolProviders) provider.record?.(ctx, call, outcome)
    return outcome
  }

  /** Failures are shown next to the node, in the UI's language. */
  private language() {
    return uiLanguage(this.settings.get().language)
  }

  private emitNode(id: string): void {
    const node: Node | null = this.graph.findNode(id)
    if (node) this.bus.emit('node_updated', { node })
  }
}

/**
 * What we count in a request: the context's parts, the messages added after it (continuing a
 * reply) and the tools it offers (providers count all of them). The parts were counted when the
 * context was built, so this is a lookup per part: tokenizing the assembled system message
 * again (memory and history, a new text every turn) cost ~3 ms of the main thread per reply at
 * a 300-turn flow, before the reply's `done` went out.
 */
/** What tool schemas take in a request, counted as they are sent (their JSON). */
export function toolsTokens(tools: readonly ToolSpec[]): number {
  return tokenCount(JSON.stringify(tools))
}

function sentTokens(
  context: ContextPreview,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[] | undefined,
): number {
  let n = tools ? toolsTokens(tools) : 0
  for (const part of context.parts) n += tokenCount(part.text)
  for (const m of messages.slice(context.messages.length))
    n += tokenCount(
      typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n'),
    )
  return n
}
