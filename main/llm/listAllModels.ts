import { toErrorValue } from '@shared/errors'
import type { LlmRegistry } from './providers'
import type { ModelInfo } from './types'

const TIMEOUT_MS = 4000

/** Asks every configured provider for its models at once; one that fails or is slow is reported, not fatal. */
export async function listAllModels(
  llm: LlmRegistry,
): Promise<{ models: ModelInfo[]; errors: Array<{ provider: string; message: string }> }> {
  const results = await Promise.all(
    llm.configured().map(async (provider) => {
      try {
        return { provider, models: await llm.connector(provider).listModels(AbortSignal.timeout(TIMEOUT_MS)) }
      } catch (e) {
        return { provider, error: toErrorValue(e).message }
      }
    }),
  )
  return {
    models: results.flatMap((r) => r.models ?? []),
    errors: results.flatMap((r) => (r.error ? [{ provider: r.provider, message: r.error }] : [])),
  }
}
