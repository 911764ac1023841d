// Each provider's own error body, so SDKs classify the failures as they would in production.

import type { Provider } from './types'

export interface ErrorAnswer {
  status: number
  body: unknown
}

export type Failure =
  | { kind: 'bad_key'; key: string | null }
  | { kind: 'model_not_found'; model: string; method?: string }
  /** `param` and `code` only reach OpenAI's body, which names the offending parameter. */
  | { kind: 'bad_request'; message: string; param?: string; code?: string }
  | { kind: 'no_route'; method: string; path: string }
  | { kind: 'status'; status: number; model: string; retryAfterMs?: number }

export function errorAnswer(provider: Provider, failure: Failure): ErrorAnswer {
  if (provider === 'openai') return openaiError(failure)
  if (provider === 'gemini') return geminiError(failure)
  return ollamaError(failure)
}

function openaiError(f: Failure): ErrorAnswer {
  const body = (status: number, message: string, type: string, code: string | null, param: string | null = null) => ({
    status,
    body: { error: { message, type, param, code } },
  })
  switch (f.kind) {
    case 'bad_key':
      return body(
        401,
        f.key
          ? `Incorrect API key provided: ${mask(f.key)}. You can find your API key at https://platform.openai.com/account/api-keys.`
          : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
        'invalid_request_error',
        'invalid_api_key',
      )
    case 'model_not_found':
      return body(
        404,
        `The model \`${f.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      )
    case 'bad_request':
      return body(400, f.message, 'invalid_request_error', f.code ?? null, f.param)
    case 'no_route':
      return body(404, `Invalid URL (${f.method} ${f.path})`, 'invalid_request_error', null)
    case 'status':
      if (f.status === 401) return body(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')
      if (f.status === 404) return openaiError({ kind: 'model_not_found', model: f.model })
      if (f.status === 429) return body(429, 'Rate limit reached for requests.', 'requests', 'rate_limit_exceeded')
      if (f.status === 400) return body(400, 'Invalid request (scripted).', 'invalid_request_error', null)
      if (f.status === 403) return body(403, 'You are not allowed to use this model.', 'invalid_request_error', null)
      return body(
        f.status,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      )
  }
}

const googleStatus: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: [
    'UNAUTHENTICATED',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  ],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'Requested entity was not found.'],
  429: ['RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.'],
  500: [
    'INTERNAL',
    'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  ],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
}

function geminiError(f: Failure): ErrorAnswer {
  const google = (code: number, message: string, status: string, details?: unknown[]) => ({
    status: code,
    body: { error: { code, message, status, ...(details ? { details } : {}) } },
  })
  switch (f.kind) {
    case 'bad_key':
      // Google answers a missing key with 403 and a wrong one with 400.
      return f.key === null
        ? google(
            403,
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
            'PERMISSION_DENIED',
          )
        : google(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
              metadata: { service: 'generativelanguage.googleapis.com' },
            },
          ])
    case 'model_not_found':
      return google(
        404,
        `models/${f.model} is not found for API version v1beta, or is not supported for ${f.method ?? 'generateContent'}. Call ListModels to see the list of available models and their supported methods.`,
        'NOT_FOUND',
      )
    case 'bad_request':
      return google(400, f.message, 'INVALID_ARGUMENT')
    case 'no_route':
      return google(404, `The requested URL ${f.path} was not found on this server.`, 'NOT_FOUND')
    case 'status': {
      if (f.status === 404) return geminiError({ kind: 'model_not_found', model: f.model })
      const [status, message] = googleStatus[f.status] ?? ['UNKNOWN', 'Unknown error.']
      const retry =
        f.status === 429
          ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(f.retryAfterMs ?? 1000) / 1000}s` }]
          : undefined
      return google(f.status, message, status, retry)
    }
  }
}

function ollamaError(f: Failure): ErrorAnswer {
  switch (f.kind) {
    case 'bad_key':
      return { status: 401, body: { error: 'unauthorized' } }
    case 'model_not_found':
      return { status: 404, body: { error: `model "${f.model}" not found, try pulling it first` } }
    case 'bad_request':
      return { status: 400, body: { error: f.message } }
    case 'no_route':
      return { status: 404, body: { error: '404 page not found' } }
    case 'status': {
      if (f.status === 404) return ollamaError({ kind: 'model_not_found', model: f.model })
      const messages: Record<number, string> = {
        401: 'unauthorized',
        429: 'too many requests',
        503: 'server busy, please try again. maximum pending requests exceeded',
      }
      return { status: f.status, body: { error: messages[f.status] ?? 'internal server error' } }
    }
  }
}

/** `sk-wrong-key` → `sk-wro****-key`: OpenAI never echoes a whole key back. */
function mask(key: string): string {
  return key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 6)}****${key.slice(-4)}`
}
