import { z } from 'zod'
import { DisplayName } from './names'
import type { EventSpecs, MethodSpecs } from './spec'

const providers = ['openai', 'openrouter', 'gemini', 'ollama'] as const

const isModelRef = (s: string) => providers.some((p) => s.startsWith(`${p}:`) && s.length > p.length + 1)

/** `provider:model`, e.g. `openai:gpt-4o-mini` or `ollama:llama3.1:8b`. */
export const ModelRefText = z
  .string()
  .max(300)
  .refine(isModelRef, { message: `write provider:model, with provider one of ${providers.join(', ')}` })

/**
 * The built-in English sentence embedder (main/memory/retrieval/sentenceModel.ts): chosen as a persona's
 * embedding model, it finds memories by meaning with no provider and no network.
 */
export const SENTENCE_MODEL = 'local:sentence-en'

/**
 * The built-in English word model (main/memory/retrieval/wordVectors.ts): GloVe word vectors
 * averaged over a text. What a persona that chose no embedding model searches with, beside the
 * words; it may be chosen by name too.
 */
export const WORDS_MODEL = 'local:words-en'

/** An embedding model: a provider's, or a built-in one. */
const EmbeddingModelText = z
  .string()
  .max(300)
  .refine((s) => s === SENTENCE_MODEL || s === WORDS_MODEL || isModelRef(s), {
    message: `write provider:model (provider one of ${providers.join(', ')}), ${SENTENCE_MODEL} or ${WORDS_MODEL}`,
  })

export const Persona = z.object({
  id: z.string(),
  name: z.string(),
  persona_text: z.string(),
  contract_text: z.string(),
  /** Null: the role's environment variable, else the app default. */
  chat_model: z.string().nullable(),
  lightweight_model: z.string().nullable(),
  vision_model: z.string().nullable(),
  lightweight_vision_model: z.string().nullable(),
  /**
   * Null: the environment's LOOMVERSE_EMBEDDING_MODEL, else the built-in word model
   * (`local:words-en`) beside the words and hashed n-grams.
   * `local:sentence-en`: the built-in sentence model beside them instead.
   */
  embedding_model: z.string().nullable(),
  /** Null: the environment's LOOMVERSE_IMAGE_MODEL, else the persona cannot make pictures. */
  image_model: z.string().nullable(),
  temperature: z.number().nullable(),
  max_tokens: z.number().int().nullable(),
  /** Each of the persona's conversations remembers only itself (as if every one were marked private). */
  memory_private: z.boolean(),
  created: z.string(),
  updated: z.string(),
})
export type Persona = z.infer<typeof Persona>

const Fields = z.object({
  name: DisplayName(100),
  persona_text: z.string().max(100_000),
  contract_text: z.string().max(100_000),
  chat_model: ModelRefText.nullable(),
  lightweight_model: ModelRefText.nullable(),
  vision_model: ModelRefText.nullable(),
  lightweight_vision_model: ModelRefText.nullable(),
  embedding_model: EmbeddingModelText.nullable(),
  image_model: ModelRefText.nullable(),
  temperature: z.number().min(0).max(2).nullable(),
  max_tokens: z.number().int().min(1).max(1_000_000).nullable(),
  memory_private: z.boolean(),
})

/** A persona's picture: its type, told by its bytes, and the bytes in base64. */
export const PersonaAvatar = z.object({
  mime: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
  data_base64: z.string(),
})
export type PersonaAvatar = z.infer<typeof PersonaAvatar>

/** The largest picture a persona keeps (8 MiB, base64 a third longer). */
export const AVATAR_MAX_BYTES = 8 * 1024 * 1024

export const personaMethods = {
  create_persona: { input: Fields.partial().required({ name: true }).strict(), output: Persona },
  list_personas: { input: z.object({}).strict(), output: z.array(Persona) },
  get_persona: { input: z.object({ id: z.string() }).strict(), output: Persona },
  update_persona: { input: Fields.partial().extend({ id: z.string() }).strict(), output: Persona },
  /** Removes the persona; its conversations stay, no longer bound to anyone. */
  delete_persona: { input: z.object({ id: z.string() }).strict(), output: z.object({ id: z.string() }) },
  /** The persona's picture, or null when it has none. */
  get_persona_avatar: { input: z.object({ id: z.string() }).strict(), output: PersonaAvatar.nullable() },
  /**
   * Sets the persona's picture (PNG, JPEG, WebP or GIF, told by its bytes; at most 8 MiB), or
   * removes it with null.
   */
  set_persona_avatar: {
    input: z
      .object({
        id: z.string(),
        data_base64: z
          .string()
          .max(Math.ceil(AVATAR_MAX_BYTES / 3) * 4)
          .nullable(),
      })
      .strict(),
    output: PersonaAvatar.nullable(),
  },
} as const satisfies MethodSpecs

export const llmMethods = {
  /** Models of every configured provider, for model pickers; a provider that fails is named in `errors`. */
  list_models: {
    input: z.object({}).strict(),
    output: z.object({
      models: z.array(z.object({ id: z.string(), ref: z.string() })),
      errors: z.array(z.object({ provider: z.string(), message: z.string() })),
    }),
  },
} as const satisfies MethodSpecs

export const personaEvents = {
  personas_changed: z.object({ personas: z.array(Persona) }),
} as const satisfies EventSpecs
