/** Models a provider lists that cannot hold a conversation: embeddings, pictures, speech, moderation. */
const NOT_CHAT = /embed|dall-e|image|imagen|tts|whisper|transcribe|moderation|rerank|audio|realtime|speech/i

/**
 * The model a provider's list offers first for conversation: its first that is not an embedding,
 * picture or speech model (lists often start with those); the first of all when none is.
 */
export function firstChatModel(models: readonly string[]): string | undefined {
  return models.find((m) => !NOT_CHAT.test(m)) ?? models[0]
}
