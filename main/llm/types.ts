// The one interface every LLM provider is used through (DESIGN: LLM providers).

export type ProviderId = 'openai' | 'openrouter' | 'gemini' | 'ollama'

export type ContentPart = { type: 'text'; text: string } | { type: 'image'; mime: string; data_base64: string }

export interface ToolCall {
  id: string
  name: string
  /** JSON text as the model produced it; the caller validates it. */
  arguments: string
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string }

export interface ToolSpec {
  name: string
  description: string
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  temperature?: number
  maxTokens?: number
  /**
   * Tokens the prompt may take (the flow's context budget): a provider with a fixed, small
   * window by default (Ollama's `num_ctx`) is asked for one that holds it and the reply.
   */
  contextTokens?: number
  tools?: ToolSpec[]
  /** Ask for a JSON object as the reply. */
  json?: boolean
  /**
   * Ask for a JSON object of this shape, through the provider's structured output (OpenAI
   * `json_schema`, Gemini `responseSchema`, Ollama `format`). Implies `json`.
   */
  jsonSchema?: JsonSchemaRequest
  signal?: AbortSignal
}

/** A named, strict JSON Schema (see `structuredSchema`). */
export interface JsonSchemaRequest {
  /** Letters, digits, `_` and `-` (OpenAI's rule for the name). */
  name: string
  schema: Record<string, unknown>
}

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
}

export type ChatEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'done'; usage: Usage | null; finish_reason: string | null }

export interface ModelInfo {
  id: string
  /** `provider:model`, the form personas and settings store. */
  ref: string
}

export interface EmbedRequest {
  model: string
  input: string[]
  signal?: AbortSignal
}

export interface ImageRequest {
  model: string
  prompt: string
  signal?: AbortSignal
}

/** One generated picture, as the provider sent it (PNG, JPEG or WebP). */
export interface GeneratedImage {
  mime: string
  data_base64: string
}

export interface Connector {
  readonly provider: ProviderId
  /** Streams the reply. Errors before the first event may be retried by the caller; later ones may not. */
  chat(request: ChatRequest): AsyncIterable<ChatEvent>
  embed(request: EmbedRequest): Promise<number[][]>
  /** One picture from a text prompt; an LlmError('bad_request') names a provider that cannot. */
  generateImage(request: ImageRequest): Promise<GeneratedImage>
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>
}
