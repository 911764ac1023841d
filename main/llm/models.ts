import { AppError } from '@shared/errors'
import type { ProviderId } from './types'

export type ModelRole = 'chat' | 'lightweight' | 'vision' | 'lightweight_vision'

export interface ModelRef {
  provider: ProviderId
  model: string
}

const providers: readonly ProviderId[] = ['openai', 'openrouter', 'gemini', 'ollama']

/** `provider:model`, e.g. `openai:gpt-4o-mini` or `ollama:llama3.1:8b` (the model part may hold colons). */
export function parseModelRef(ref: string): ModelRef {
  const at = ref.indexOf(':')
  const provider = ref.slice(0, at) as ProviderId
  const model = ref.slice(at + 1)
  if (at <= 0 || !model || !providers.includes(provider)) {
    throw new AppError(
      'bad_input',
      `"${ref}" is not a model reference: write provider:model with provider one of ${providers.join(', ')}`,
    )
  }
  return { provider, model }
}

const envByRole: Record<ModelRole, string> = {
  chat: 'LOOMVERSE_DEFAULT_MODEL',
  lightweight: 'LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL',
  vision: 'LOOMVERSE_VISION_MODEL',
  lightweight_vision: 'LOOMVERSE_LIGHTWEIGHT_VISION_MODEL',
}

export const appDefaultModels: Record<ModelRole, string> = {
  chat: 'openai:gpt-4o-mini',
  lightweight: 'openai:gpt-4o-mini',
  vision: 'openai:gpt-4o-mini',
  lightweight_vision: 'openai:gpt-4o-mini',
}

/**
 * The seed's fallback chain: the persona's own column → the role's environment variable →
 * the default (chosen in the settings, else the built-in one).
 */
export function resolveModel(
  role: ModelRole,
  personaValue: string | null | undefined,
  env: NodeJS.ProcessEnv,
  settingsDefault?: string | null,
): ModelRef {
  return parseModelRef(personaValue || env[envByRole[role]] || settingsDefault || appDefaultModels[role])
}
