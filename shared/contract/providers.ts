import { z } from 'zod'
import type { EventSpecs, MethodSpecs } from './spec'

export const ProviderIdSchema = z.enum(['openai', 'openrouter', 'gemini', 'ollama'])

export const ProviderInfo = z.object({
  id: ProviderIdSchema,
  /** Set up, from the settings or the environment. */
  configured: z.boolean(),
  base_url: z.string(),
  /** Where the setup comes from: the settings UI, environment variables, or nowhere yet. */
  source: z.enum(['settings', 'env']).nullable(),
  /** Whether a key is set and its last four characters — never the key. */
  key: z.object({ set: z.boolean(), last4: z.string().nullable(), source: z.enum(['store', 'env']).nullable() }),
  /** False in browser mode: a key typed in lasts until the app stops (environment variables keep it). */
  keys_persist: z.boolean(),
  needs_key: z.boolean(),
})
export type ProviderInfo = z.infer<typeof ProviderInfo>

const BaseUrl = z
  .string()
  .trim()
  .max(500)
  .refine((s) => /^https?:\/\/[^\s]+$/.test(s), { message: 'must be an http:// or https:// URL' })

export const providerMethods = {
  list_providers: { input: z.object({}).strict(), output: z.array(ProviderInfo) },
  /** Sets a provider up or changes it. The key is write-only: nothing ever reads it back out. */
  set_provider: {
    input: z
      .object({
        id: ProviderIdSchema,
        /** null: the provider's usual address. */
        base_url: BaseUrl.nullable().optional(),
        api_key: z.string().trim().min(1).max(500).optional(),
        clear_key: z.boolean().optional(),
      })
      .strict(),
    output: z.array(ProviderInfo),
  },
  remove_provider: { input: z.object({ id: ProviderIdSchema }).strict(), output: z.array(ProviderInfo) },
  /**
   * Lists the provider's models: proof that address and key work. `base_url` and `api_key` test
   * what is typed before it is saved (the saved ones otherwise). A saved provider that answers
   * becomes the source of the chat and summary defaults when none is chosen yet: its first
   * model (`defaults_set` says which were set), so nothing goes out under a model nobody chose.
   */
  test_provider: {
    input: z
      .object({
        id: ProviderIdSchema,
        base_url: BaseUrl.optional(),
        api_key: z.string().trim().min(1).max(500).optional(),
      })
      .strict(),
    output: z.object({
      ok: z.boolean(),
      models: z.array(z.string()),
      message: z.string().nullable(),
      defaults_set: z.array(z.enum(['chat', 'summary'])).default([]),
    }),
  },
  /** Looks for an Ollama on this machine (127.0.0.1:11434). */
  detect_ollama: {
    input: z.object({}).strict(),
    output: z.object({ found: z.boolean(), base_url: z.string(), models: z.array(z.string()) }),
  },
} as const satisfies MethodSpecs

export const providerEvents = {
  providers_changed: z.object({ providers: z.array(ProviderInfo) }),
} as const satisfies EventSpecs
