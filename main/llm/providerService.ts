import type { Parsed, ProviderInfo } from '@shared/contract'
import { toErrorValue } from '@shared/errors'
import type { Db } from '../db/open'
import type { EventBus } from '../kernel/events'
import { keyStatus, type KeyStore } from './keys/keyStore'
import { deleteSetting, readSetting, writeSetting } from '../settings/settingRows'
import { llmErrorText } from './llmErrorText'
import { detectOllama } from './ollamaConnector'
import { connectorFor, defaultBaseUrls, providersFromEnv, type LlmRegistry, type ProviderConfig } from './providers'
import type { ProviderId } from './types'

const ids: readonly ProviderId[] = ['openai', 'openrouter', 'gemini', 'ollama']
const envKey: Partial<Record<ProviderId, string>> = {
  openai: 'OPENAI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
  gemini: 'GEMINI_API_KEY',
}

/** What the settings table keeps per provider: never a key. */
interface StoredProvider {
  base_url: string | null
}

/**
 * The providers the app talks to: set up in the settings UI (address in loomverse.db, key in
 * the key store) or by environment variables. Whenever they change, the chat registry and the
 * job worker get the new setup.
 */
export class ProviderService {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly keys: KeyStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly registries: Array<{ replace(p: Map<ProviderId, ProviderConfig>): void }>,
  ) {}

  /** The effective setup: the settings win over the environment, a stored key over an env key. */
  configs(): Map<ProviderId, ProviderConfig> {
    const fromEnv = providersFromEnv(this.env)
    const result = new Map<ProviderId, ProviderConfig>()
    for (const id of ids) {
      const stored = this.stored(id)
      const env = fromEnv.get(id)
      if (!stored && !env) continue
      result.set(id, {
        id,
        baseURL: stored?.base_url ?? env?.baseURL ?? defaultBaseUrls[id],
        apiKey: this.keys.get(id) ?? env?.apiKey ?? null,
      })
    }
    return result
  }

  list(): ProviderInfo[] {
    const fromEnv = providersFromEnv(this.env)
    return ids.map((id) => {
      const stored = this.stored(id)
      const env = fromEnv.get(id)
      const storeKey = this.keys.get(id)
      const envKeyValue = envKey[id] ? (this.env[envKey[id]!] ?? null) : null
      const key = storeKey ?? envKeyValue
      return {
        id,
        configured: Boolean(stored || env),
        base_url: stored?.base_url ?? env?.baseURL ?? defaultBaseUrls[id],
        source: stored ? 'settings' : env ? 'env' : null,
        key: { ...keyStatus(key), source: storeKey ? 'store' : envKeyValue ? 'env' : null },
        keys_persist: this.keys.persistent,
        needs_key: id !== 'ollama',
      }
    })
  }

  set(input: Parsed<'set_provider'>): ProviderInfo[] {
    const current = this.stored(input.id)
    const next: StoredProvider = {
      base_url: input.base_url === undefined ? (current?.base_url ?? null) : input.base_url,
    }
    this.write(input.id, next)
    if (input.api_key) this.keys.set(input.id, input.api_key)
    if (input.clear_key) this.keys.delete(input.id)
    return this.changed()
  }

  remove(id: ProviderId): ProviderInfo[] {
    deleteSetting(this.db, `provider:${id}`)
    this.keys.delete(id)
    return this.changed()
  }

  /**
   * Lists the models of what is typed (`base_url`, `api_key`) or else of what is saved. The
   * key typed is used for this call only and never kept.
   */
  async test(
    input: { id: ProviderId; base_url?: string; api_key?: string },
    registry: LlmRegistry,
    language: 'ja' | 'en' = 'en',
  ): Promise<{ ok: boolean; models: string[]; message: string | null }> {
    const saved = this.configs().get(input.id)
    const typed = input.base_url !== undefined || input.api_key !== undefined
    try {
      const connector = typed
        ? connectorFor({
            id: input.id,
            baseURL: input.base_url ?? saved?.baseURL ?? defaultBaseUrls[input.id],
            apiKey: input.api_key ?? saved?.apiKey ?? null,
          })
        : registry.connector(input.id)
      const models = await connector.listModels(AbortSignal.timeout(8000))
      return { ok: true, models: models.map((m) => m.id), message: null }
    } catch (e) {
      return { ok: false, models: [], message: llmErrorText(toErrorValue(e).message, language) }
    }
  }

  async detectOllama(): Promise<{ found: boolean; base_url: string; models: string[] }> {
    const base = this.stored('ollama')?.base_url ?? defaultBaseUrls.ollama
    const models = await detectOllama(base)
    return { found: models !== null, base_url: base, models: models?.map((m) => m.id) ?? [] }
  }

  /** Hands the current setup to everyone holding a registry. */
  publish(): void {
    const configs = this.configs()
    for (const r of this.registries) r.replace(configs)
  }

  private changed(): ProviderInfo[] {
    this.publish()
    const providers = this.list()
    this.bus.emit('providers_changed', { providers })
    return providers
  }

  private stored(id: ProviderId): StoredProvider | null {
    return (readSetting(this.db, `provider:${id}`) as StoredProvider | undefined) ?? null
  }

  private write(id: ProviderId, value: StoredProvider): void {
    writeSetting(this.db, `provider:${id}`, value)
  }
}
