import { AppError, type ErrorCode } from '@shared/errors'
import type { ProviderId } from './types'

export const providerNames: Record<ProviderId, string> = {
  openai: 'OpenAI',
  openrouter: 'OpenRouter',
  gemini: 'Gemini',
  ollama: 'Ollama',
}

/**
 * The server as the user set it up: the official OpenAI API is "OpenAI", anything else at an
 * OpenAI-compatible address is named by its address (a local LM Studio is not "OpenAI").
 */
export function serverName(provider: ProviderId, baseURL?: string): string {
  if (provider === 'openai' && baseURL && !/^https:\/\/api\.openai\.com(\/|$)/.test(baseURL))
    return `${baseURL} (OpenAI-compatible)`
  return providerNames[provider]
}

export type LlmFailure =
  'auth' | 'not_found' | 'rate_limited' | 'unavailable' | 'bad_request' | 'timeout' | 'aborted' | 'not_configured'

const codes: Record<LlmFailure, ErrorCode> = {
  auth: 'llm_auth',
  not_found: 'llm_not_found',
  rate_limited: 'llm_rate_limited',
  unavailable: 'llm_unavailable',
  bad_request: 'llm_bad_request',
  timeout: 'llm_timeout',
  aborted: 'llm_aborted',
  not_configured: 'llm_not_configured',
}

/**
 * A provider failure in words a user can act on ("invalid API key for OpenAI"). Never
 * carries the key or the raw request: provider messages are reduced to what they say.
 */
export class LlmError extends AppError {
  readonly failure: LlmFailure
  readonly retryable: boolean
  /** How long the provider asked us to wait, when it said. */
  readonly retryAfterMs: number | null

  constructor(failure: LlmFailure, message: string, options: { retryAfterMs?: number | null } = {}) {
    super(codes[failure], message)
    this.name = 'LlmError'
    this.failure = failure
    this.retryable = failure === 'rate_limited' || failure === 'unavailable' || failure === 'timeout'
    this.retryAfterMs = options.retryAfterMs ?? null
  }
}

/** Maps an HTTP status from any provider to a failure and a plain message. */
export function fromStatus(
  provider: ProviderId,
  status: number | undefined,
  model: string,
  detail?: string,
  retryAfterMs?: number | null,
  /** How to name the server (`serverName`); the provider's name by default. */
  who: string = providerNames[provider],
): LlmError {
  const said = detail ? `: ${redact(detail)}` : ''
  if (status === 401 || status === 403) return new LlmError('auth', `invalid API key for ${who}`)
  if (status === 404) return new LlmError('not_found', `model not found on ${who}: ${model}`)
  if (status === 429) return new LlmError('rate_limited', `${who} is rate limiting requests`, { retryAfterMs })
  if (status === 400 || status === 422) return new LlmError('bad_request', `${who} refused the request${said}`)
  if (status !== undefined && status >= 500) return new LlmError('unavailable', `${who} had a server error (${status})`)
  return new LlmError('unavailable', `could not reach ${who}${said}`)
}

/** How a call to a provider ended, for `callFailure`. */
export interface FailedCall {
  provider: ProviderId
  /** Where it was called, named when it could not be reached (a local server's host, say). */
  at?: string
  /** The caller's own signal: once it fired, any failure is the stop it asked for. */
  signal?: AbortSignal
  /** Whether our deadline ran out before the response started. */
  timedOut?: boolean
  /** `stream` once the response had started: the failure is then a connection lost mid-reply. */
  stage?: 'open' | 'stream'
}

/**
 * Maps a failed call whose connector knows itself why it ended (its own deadline, the caller's
 * signal, the stage): our LlmErrors pass through, then the caller's stop, then our deadline,
 * then what the provider said (`answered`, when it recognises `e`); what is left is a lost or
 * refused connection.
 */
export function callFailure(e: unknown, call: FailedCall, answered?: (e: unknown) => LlmError | undefined): LlmError {
  const who = providerNames[call.provider]
  const where = call.at ? `${who} at ${call.at}` : who
  if (e instanceof LlmError) return e
  if (call.signal?.aborted) return new LlmError('aborted', 'stopped')
  if (call.timedOut) return new LlmError('timeout', `${where} did not answer in time`)
  const said = answered?.(e)
  if (said) return said
  if (call.stage === 'stream') return new LlmError('unavailable', `the connection to ${who} broke off mid-reply`)
  return new LlmError('unavailable', `could not reach ${where}`)
}

/** Removes anything that looks like a key from a provider's message before it is shown or logged. */
export function redact(text: string): string {
  return text
    .replace(/\b(sk|rk|pk|AIza)[-_A-Za-z0-9]{8,}/g, '[redacted]')
    .replace(/(key=)[^&\s]+/gi, '$1[redacted]')
    .slice(0, 300)
}

export function parseRetryAfter(value: string | null | undefined): number | null {
  if (!value) return null
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now())
}
