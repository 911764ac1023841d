import { z } from 'zod'
import type { Persona } from '@shared/contract'
import { parseModelRef, resolveModel } from '../../llm/models'
import { LlmError } from '../../llm/llmError'
import type { LlmRegistry } from '../../llm/providers'
import { classifyIntent } from './intent'
import { askJson } from '../jobs/jobContext'
import type { PackRequest } from './packBuilder'
import { embedSentences, isSentenceModel, SENTENCE_MODEL } from '../retrieval/sentenceModel'
import { embedWords, isWordsModel, WORDS_MODEL, wordVectorsInstalled } from '../retrieval/wordVectors'
import { isBuiltInModel } from '../retrieval/builtInModels'
import type { MemoryStore } from '../store/store'

export interface PackAidsDeps {
  llm: LlmRegistry
  env: NodeJS.ProcessEnv
  /** The settings' default lightweight model, if any. */
  lightweightDefault: () => string | null | undefined
  /** How long a pack waits for the model's intent and the query's embedding. */
  timeoutMs?: { intent?: number; embed?: number }
  /** The built-in sentence model's vectors, off the main thread (default: computed here). */
  sentences?: (texts: string[], timeoutMs: number) => Promise<number[][]>
  log?: (message: string) => void
}

/** Below this many units every candidate fits a pack anyway: the rules' guess is enough. */
const MODEL_INTENT_MIN_UNITS = 20
const INTENT_CACHE = 500
/** After a provider fails, packs go without it for a while rather than wait on it every message. */
const RESTING_MS = 5 * 60_000

const IntentAnswer = z.object({ intent: z.enum(['recall', 'plan', 'fact', 'smalltalk', 'general']) })
const INTENT_PROMPT = `Classify what the user's message needs from a long-term memory. intent: recall (asks about past events or earlier conversations), plan (to-dos, schedules, reminders, promises), fact (a stable fact or preference about someone), smalltalk (greeting, chit-chat), general (anything else). Field: intent.`

/**
 * What a MemoryPack gets from the models before it is built: the lightweight model's intent
 * when the rules are unsure, and the query's vector from the persona's embedding model. Both
 * have short deadlines and fall back quietly (rules, local vectors): a slow provider may make a
 * pack plainer, never the reply later by more than the deadline.
 */
export class PackAids {
  /** Answers per query, the rules' fallbacks included: a model that cannot answer is not asked again and again. */
  private readonly intents = new Map<string, Pick<PackRequest, 'intent' | 'intentBy'>>()

  /** When each helper (intent, embedding) may be asked again after a failure. */
  private readonly resting = { intent: 0, embed: 0 }

  constructor(private readonly deps: PackAidsDeps) {}

  /**
   * The persona's embedding model as `provider:model`, when one is set and its provider
   * configured; or a built-in model, which needs no provider. A persona that chose none (made
   * by the API, the CLI, a card, in a Japanese window, or before there was a choice) gets the
   * built-in word model: its meanings lifted LoCoMo evidence recall on conversations 0–2 from
   * 0.8673 to 0.891 and the synthetic set's from 0.763 to 0.926 (bench/memory), at ~15 µs a
   * text. Null when its file is not installed (a log line says so once).
   */
  embeddingModel(persona: Persona): string | null {
    const text = persona.embedding_model || this.deps.env.LOOMVERSE_EMBEDDING_MODEL || WORDS_MODEL
    if (isSentenceModel(text)) return SENTENCE_MODEL
    if (isWordsModel(text)) return wordVectorsInstalled() ? WORDS_MODEL : null
    try {
      const ref = parseModelRef(text)
      return this.deps.llm.configured().includes(ref.provider) ? `${ref.provider}:${ref.model}` : null
    } catch {
      return null
    }
  }

  /**
   * The intent (and who decided it) and the query's model vector, each within its deadline.
   * `modelIntent: false` (a reply waiting on its pack) lets the rules decide: asking the model
   * cost every unsure message two round trips before its first word — seconds on a real
   * provider — and a call, with no measured gain in recall (the LoCoMo bench runs on the rules).
   */
  async gather(
    persona: Persona,
    store: MemoryStore,
    query: string,
    options: { modelIntent: boolean } = { modelIntent: true },
  ): Promise<Pick<PackRequest, 'intent' | 'intentBy' | 'modelVector'>> {
    const rulesOnly = () => {
      const rules = classifyIntent(query)
      return { intent: rules.intent, intentBy: 'rules' as const }
    }
    const [intent, modelVector] = await Promise.all([
      options.modelIntent ? this.intent(persona, store, query) : rulesOnly(),
      this.vector(persona, query),
    ])
    return { ...intent, ...(modelVector ? { modelVector } : {}) }
  }

  private async intent(
    persona: Persona,
    store: MemoryStore,
    query: string,
  ): Promise<Pick<PackRequest, 'intent' | 'intentBy'>> {
    const rules = classifyIntent(query)
    const ruled = { intent: rules.intent, intentBy: 'rules' as const }
    if (rules.confident || !query.trim()) return ruled
    const key = query.trim().slice(0, 2000)
    const cached = this.intents.get(key)
    if (cached) return cached
    const units = (store.prepare('SELECT max(id) AS n FROM units').get() as { n: number | null }).n ?? 0
    if (units < MODEL_INTENT_MIN_UNITS || Date.now() < this.resting.intent) return ruled
    let model: string
    try {
      const ref = resolveModel('lightweight', persona.lightweight_model, this.deps.env, this.deps.lightweightDefault())
      if (!this.deps.llm.configured().includes(ref.provider)) return ruled
      model = `${ref.provider}:${ref.model}`
    } catch {
      return ruled
    }
    try {
      const signal = AbortSignal.timeout(this.deps.timeoutMs?.intent ?? 1500)
      const answer = await askJson({ llm: this.deps.llm, signal }, model, INTENT_PROMPT, key, IntentAnswer)
      return this.remember(key, { intent: answer.intent, intentBy: 'model' })
    } catch (e) {
      this.deps.log?.(`[memory] intent by ${model} failed, the rules decide: ${message(e)}`)
      // The provider failed (not the answer's shape): leave it be for a while.
      if (e instanceof LlmError) this.resting.intent = Date.now() + RESTING_MS
      return this.remember(key, ruled)
    }
  }

  private async vector(persona: Persona, query: string): Promise<PackRequest['modelVector'] | null> {
    const model = this.embeddingModel(persona)
    if (!model || !query.trim() || (!isBuiltInModel(model) && Date.now() < this.resting.embed)) return null
    try {
      const [vector] = await this.embed(model, [query.slice(0, 4000)], this.deps.timeoutMs?.embed ?? 2000)
      return vector && vector.length > 0 ? { model, vector } : null
    } catch (e) {
      this.deps.log?.(`[memory] embedding the query with ${model} failed, local vectors only: ${message(e)}`)
      // A provider is spared for a while; the built-in models (slow only while they load) are not one.
      if (!isBuiltInModel(model)) this.resting.embed = Date.now() + RESTING_MS
      return null
    }
  }

  private embed(model: string, input: string[], timeoutMs: number): Promise<Array<number[] | null>> {
    if (isSentenceModel(model)) return (this.deps.sentences ?? embedSentences)(input, timeoutMs)
    // Microseconds on this thread: no worker round trip, no deadline to keep.
    if (isWordsModel(model)) return Promise.resolve(embedWords(input))
    const ref = parseModelRef(model)
    return this.deps.llm
      .connector(ref.provider)
      .embed({ model: ref.model, input, signal: AbortSignal.timeout(timeoutMs) })
  }

  private remember(key: string, answer: Pick<PackRequest, 'intent' | 'intentBy'>) {
    if (this.intents.size >= INTENT_CACHE) this.intents.delete(this.intents.keys().next().value!)
    this.intents.set(key, answer)
    return answer
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
