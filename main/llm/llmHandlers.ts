import type { llmMethods, providerMethods } from '@shared/contract'
import { firstChatModel } from '@shared/modelNames'
import type { HandlerModule } from '../kernel/router'
import { uiLanguage } from '../kernel/language'
import type { SettingsService } from '../settings/settingsService'
import { listAllModels } from './listAllModels'
import type { ProviderService } from './providerService'
import type { LlmRegistry } from './providers'

/** Providers (set up, tested, detected) and the models they offer. */
export function llmHandlers(
  llm: LlmRegistry,
  providers: ProviderService,
  settings: SettingsService,
): HandlerModule<typeof llmMethods & typeof providerMethods> {
  return {
    list_models: () => listAllModels(llm),
    list_providers: () => providers.list(),
    set_provider: (i) => providers.set(i),
    remove_provider: (i) => providers.remove(i.id),
    test_provider: async (i) => {
      const tested = await providers.test(i, llm, uiLanguage(settings.get().language))
      const saved = i.base_url === undefined && i.api_key === undefined
      return { ...tested, defaults_set: tested.ok && saved ? firstModelDefaults(settings, i.id, tested.models) : [] }
    },
    detect_ollama: () => providers.detectOllama(),
  }
}

/**
 * The first provider that answers with models gives the chat and summary defaults their first
 * model, when the user has chosen none: a chat then goes out under a model the server has, and
 * the settings show which. Never overrides a choice.
 */
function firstModelDefaults(settings: SettingsService, provider: string, models: string[]): Array<'chat' | 'summary'> {
  const first = firstChatModel(models)
  if (!first) return []
  const now = settings.get()
  const set: Array<'chat' | 'summary'> = []
  for (const purpose of ['chat', 'summary'] as const) {
    if (now[purpose].model) continue
    settings.update({ [purpose]: { ...now[purpose], model: `${provider}:${first}` } })
    set.push(purpose)
  }
  return set
}
