import i18next from 'i18next'
import type { ErrorValue } from '@shared/errors'

/**
 * A user-facing sentence for an error: known codes get a translated explanation, others their
 * message. The contract's method name that starts a validation or time-out message
 * (`chat_send: prompt: …`) is for logs and scripts, not for the user: it is left out.
 */
export function errorText(error: ErrorValue): string {
  const message = error.message.replace(METHOD_PREFIX, '')
  const key = `errors.${error.code}`
  return i18next.exists(key) ? i18next.t(key, { message }) : message
}

/** `snake_case_method: ` at the start of a message. */
const METHOD_PREFIX = /^[a-z]+(?:_[a-z]+)+: /
