/**
 * Errors cross every process boundary as values, never as thrown exceptions:
 * `{ ok: false, error: { code, message } }`. Services throw `AppError`; the router
 * turns it into a value so the code survives IPC and WebSocket alike.
 */
export const errorCodes = [
  'bad_input',
  /** A file the user asked to import is refused (its name and line say where): not a wrong call. */
  'bad_file',
  'bad_request',
  'unknown_method',
  'not_found',
  'conflict',
  'forbidden',
  'cycle',
  'db_too_new',
  'unavailable',
  'llm_auth',
  'llm_not_found',
  'llm_rate_limited',
  'llm_unavailable',
  'llm_bad_request',
  'llm_timeout',
  'llm_aborted',
  'llm_not_configured',
  'internal',
] as const

export type ErrorCode = (typeof errorCodes)[number]

export interface ErrorValue {
  code: ErrorCode
  message: string
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue }

export class AppError extends Error {
  readonly code: ErrorCode

  constructor(code: ErrorCode, message: string) {
    super(message)
    this.name = 'AppError'
    this.code = code
  }
}

export function toErrorValue(e: unknown): ErrorValue {
  if (e instanceof AppError) return { code: e.code, message: e.message }
  const message = e instanceof Error ? e.message : String(e)
  return { code: 'internal', message }
}
