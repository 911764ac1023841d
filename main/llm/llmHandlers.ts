import type { llmMethods, providerMethods } from '@shared/contract'
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
    test_provider: (i) => providers.test(i.id, llm, uiLanguage(settings.get().language)),
    detect_ollama: () => providers.detectOllama(),
  }
}
