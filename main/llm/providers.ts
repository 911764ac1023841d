import { geminiConnector } from './geminiConnector'
import { LlmError, providerNames } from './llmError'
import { ollamaConnector } from './ollamaConnector'
import { openaiConnector } from './openaiConnector'
import { warmPoolFetch } from './poolFetch'
import type { Connector, ProviderId } from './types'

export interface ProviderConfig {
  id: ProviderId
  baseURL: string
  /** Held in the main process only; never sent to the renderer, logs or exports. */
  apiKey: string | null
}

export const defaultBaseUrls: Record<ProviderId, string> = {
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  gemini: 'https://generativelanguage.googleapis.com',
  ollama: 'http://127.0.0.1:11434',
}

/**
 * Providers configured by environment variables (browser and headless mode):
 * OPENAI_API_KEY / OPENAI_BASE_URL, OPENROUTER_API_KEY, GEMINI_API_KEY, OLLAMA_HOST.
 * An OpenAI-compatible local server needs only OPENAI_BASE_URL.
 */
export function providersFromEnv(env: NodeJS.ProcessEnv): Map<ProviderId, ProviderConfig> {
  const found = new Map<ProviderId, ProviderConfig>()
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    found.set('openai', {
      id: 'openai',
      baseURL: env.OPENAI_BASE_URL || defaultBaseUrls.openai,
      apiKey: env.OPENAI_API_KEY || null,
    })
  }
  if (env.OPENROUTER_API_KEY)
    found.set('openrouter', { id: 'openrouter', baseURL: defaultBaseUrls.openrouter, apiKey: env.OPENROUTER_API_KEY })
  if (env.GEMINI_API_KEY)
    found.set('gemini', {
      id: 'gemini',
      baseURL: env.GEMINI_BASE_URL || defaultBaseUrls.gemini,
      apiKey: env.GEMINI_API_KEY,
    })
  // Ollama counts as set up only when named: the onboarding offers it when it detects one.
  if (env.OLLAMA_HOST) found.set('ollama', { id: 'ollama', baseURL: withScheme(env.OLLAMA_HOST), apiKey: null })
  return found
}

/** Builds connectors on demand from the configured providers. */
export class LlmRegistry {
  private readonly cache = new Map<ProviderId, Connector>()

  constructor(private providers: Map<ProviderId, ProviderConfig>) {}

  /** New settings (a key or address changed): connectors are rebuilt on next use. */
  replace(providers: Map<ProviderId, ProviderConfig>): void {
    this.providers = providers
    this.cache.clear()
  }

  connector(provider: ProviderId): Connector {
    const cached = this.cache.get(provider)
    if (cached) return cached
    const config = this.providers.get(provider)
    if (!config) {
      throw new LlmError(
        'not_configured',
        `${providerNames[provider]} is not set up: add it in Settings (or set its API key in the environment)`,
      )
    }
    const connector = connectorFor(config)
    this.cache.set(provider, connector)
    return connector
  }

  configured(): ProviderId[] {
    return [...this.providers.keys()]
  }

  /**
   * Readies, at the app's start-up, what the first reply's request would load and compile on its
   * way out, contacting no provider: Node's fetch, which Gemini's SDK calls (a data: URL fetches
   * nothing from anywhere), and the pool the OpenAI-compatible and Ollama connectors call
   * (poolFetch.ts, ~40 ms at its first request), by a request to a loopback server of its own.
   */
  async warmUp(): Promise<void> {
    await fetch('data:,')
      .then((r) => r.arrayBuffer())
      .catch(() => {})
    // One at a time, a turn of the event loop apart: a window or a reply starting meanwhile waits for neither.
    await new Promise(setImmediate)
    await warmPoolFetch()
  }

  /** The configurations themselves (with keys), for a worker thread that builds its own connectors. */
  configs(): ProviderConfig[] {
    return [...this.providers.values()]
  }
}

/** A connector for one provider's configuration, outside any registry (a test of what was typed). */
export function connectorFor(config: ProviderConfig): Connector {
  switch (config.id) {
    case 'openai':
    case 'openrouter':
      // Local OpenAI-compatible servers accept any key; the SDK insists on one.
      return openaiConnector({ provider: config.id, apiKey: config.apiKey ?? 'not-needed', baseURL: config.baseURL })
    case 'gemini':
      if (!config.apiKey)
        throw new LlmError('not_configured', 'Gemini needs an API key: add it in Settings (or set GEMINI_API_KEY)')
      return geminiConnector({ apiKey: config.apiKey, baseURL: config.baseURL })
    case 'ollama':
      return ollamaConnector({ baseURL: config.baseURL })
  }
}

/** Whether a local Ollama answers, with its models (first-run setup offers it); null when none does. */
export { detectOllama } from './ollamaConnector'

function withScheme(host: string): string {
  return /^https?:\/\//.test(host) ? host : `http://${host}`
}
