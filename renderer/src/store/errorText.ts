import i18next from 'i18next'
import type { ErrorValue } from '@shared/errors'

/**
 * A user-facing sentence for an error: one main said for the user (its key) in the window's
 * language; else known codes get a translated explanation, others their message. The contract's
 * method name that starts a validation or time-out message (`chat_send: prompt: …`) is for logs
 * and scripts, not for the user: it is left out.
 */
export function errorText(error: ErrorValue): string {
  const said = `errors.said.${error.key}`
  if (error.key && i18next.exists(said)) return i18next.t(said, { ...error.params })
  const message = error.message.replace(METHOD_PREFIX, '')
  const key = `errors.${error.code}`
  return i18next.exists(key) ? i18next.t(key, { message }) : message
}

/** `snake_case_method: ` at the start of a message. */
const METHOD_PREFIX = /^[a-z]+(?:_[a-z]+)+: /
