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

/**
 * Sentences a window words in its own language (renderer i18n `errors.said.<key>`, filled in
 * with the error's `params`); the message beside them is the English for logs and programs.
 */
export const errorKeys = [
  'reply_streaming',
  'reply_complete',
  'scene_all_muted',
  'meta_request_not_kept',
  'backup_running',
  'new_home_not_empty',
  'mcp_file_broken',
  'mcp_name_taken',
  'building_not_empty',
  'story_name_taken',
  'nothing_to_export',
  'export_folder_not_folder',
  'export_folder_not_empty',
  'node_in_flow',
  'version_reviewed',
  'version_not_revertible',
  'version_changed_since',
  'file_changed_since',
  'file_deleted_since',
  'file_created_since',
  'trash_unreadable',
  'trash_file_missing',
] as const

export type ErrorKey = (typeof errorKeys)[number]

export type ErrorParams = Record<string, string | number>

export interface ErrorValue {
  code: ErrorCode
  message: string
  /** How a window says it in its language; a window without the key shows the message. */
  key?: ErrorKey
  params?: ErrorParams
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue }

export class AppError extends Error {
  readonly code: ErrorCode
  readonly said: { key: ErrorKey; params?: ErrorParams } | undefined

  /** `said`: the sentence a window words in its own language for a user who meets this error. */
  constructor(code: ErrorCode, message: string, said?: { key: ErrorKey; params?: ErrorParams }) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.said = said
  }
}

export function toErrorValue(e: unknown): ErrorValue {
  if (e instanceof AppError) return { code: e.code, message: e.message, ...e.said }
  const message = e instanceof Error ? e.message : String(e)
  return { code: 'internal', message }
}
