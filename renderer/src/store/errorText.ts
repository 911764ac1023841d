import i18next from 'i18next'
import type { ErrorValue } from '@shared/errors'

/** A user-facing sentence for an error: known codes get a translated explanation, others their message. */
export function errorText(error: ErrorValue): string {
  const key = `errors.${error.code}`
  return i18next.exists(key) ? i18next.t(key, { message: error.message }) : error.message
}
