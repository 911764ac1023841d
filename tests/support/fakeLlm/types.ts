// The public shapes of the fake LLM server: what a test scripts, and what it can read back.

export type Provider = 'openai' | 'gemini' | 'ollama'

/**
 * Which kind of call a rule answers; models lists are never scripted. `image` is OpenAI's
 * /v1/images/generations and a Gemini generateContent that asks for the IMAGE modality.
 */
export type Endpoint = 'chat' | 'embed' | 'image'

export type ErrorStatus = 400 | 401 | 403 | 404 | 429 | 500 | 503

export interface ScriptedToolCall {
  name: string
  /** An object, or JSON text exactly as the model would produce it. */
  arguments?: Record<string, unknown> | string
}

export interface ScriptedReply {
  text?: string
  toolCalls?: ScriptedToolCall[]
}

export interface ScriptRule {
  /** Only requests to this provider; any provider when absent. */
  provider?: Provider
  /** Only requests for this model (Ollama names match with or without `:latest`). Naming a model makes it known. */
  model?: string
  /** Default `chat`. */
  endpoint?: Endpoint
  /**
   * Only requests whose last user message contains this text (tell apart jobs sharing one model);
   * for `image` rules, the prompt.
   */
  promptIncludes?: string
  /**
   * The reply; the echo of the last user message when absent. In `image` rules on Gemini the model
   * answers this text and no picture, as a refusing image model does; OpenAI's images API ignores it.
   */
  reply?: string | ScriptedReply
  /** How the reply text is split into stream deltas; their concatenation is the text. */
  chunks?: string[]
  /** Wait before the first byte of the response. */
  delayMs?: number
  /** Hold the response until this settles (before `delayMs`): a test lets held replies go when it is ready. */
  until?: Promise<unknown>
  /** Wait before each delta after the first. */
  chunkDelayMs?: number
  /** Cut the connection after this many deltas; the finishing frame never arrives. */
  disconnectAfterChunks?: number
  /** Answer with this error in the provider's own error shape instead of a reply. */
  status?: ErrorStatus
  /** For status 429: the Retry-After sent (`retry-after` in seconds and `retry-after-ms`). Default 1000. */
  retryAfterMs?: number
  /** How many requests this rule serves; unlimited when absent. */
  times?: number
  /**
   * The model's tokenizer counts a prompt this many times as o200k does: the reported prompt
   * tokens (OpenAI `usage`, Ollama `prompt_eval_count`) are scaled by it. Default 1.
   */
  promptTokenScale?: number
}

/** What `script()` hands back: how many requests the rule has served so far. */
export interface ScriptHandle {
  readonly served: number
}

export interface RecordedRequest {
  /** `unknown` for paths no provider serves. */
  provider: Provider | 'unknown'
  method: string
  /** Path without the query string. */
  path: string
  /** Query parameters; the Gemini `key` parameter is left out. */
  query: Record<string, string>
  /** Lower-cased request headers, without `authorization` and `x-goog-api-key`. */
  headers: Record<string, string>
  /** Parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown
  /** The model the request named (body or path), if any. */
  model?: string
}

export interface FakeLlmOptions {
  /** The only Bearer key the OpenAI-compatible routes accept. Default `sk-test`. */
  openaiKey?: string
  /** The only key the Gemini routes accept. Default `gemini-test`. */
  geminiKey?: string
  /** Models each provider knows (listed, and accepted without a 404). Defaults in `models.ts`. */
  models?: Partial<Record<Provider, string[]>>
  /** Embedding length when the request does not ask for one. Default 8. */
  embeddingDimensions?: number
  /**
   * Keep every request in `requests` (default true). Benches read none back and send thousands:
   * kept, their bodies grew the server's heap until its collections paused it mid-measure.
   */
  keepRequests?: boolean
}

export interface FakeLlm {
  /** `http://127.0.0.1:<port>`; OpenAI base URL is `${url}/v1`, Gemini and Ollama use `url` itself. */
  readonly url: string
  readonly port: number
  /** Every request received, in order (cleared by `reset()`; none with `keepRequests: false`). */
  readonly requests: RecordedRequest[]
  /** Adds a rule after the existing ones; rules are tried in order. */
  script(rule: ScriptRule): ScriptHandle
  /** Texts containing any of these words embed close together (a shared meaning), on every provider. */
  meaning(words: readonly string[]): void
  /** Forgets all rules, meanings and recorded requests. */
  reset(): void
  /** Ends open streams and stops listening. */
  close(): Promise<void>
}
