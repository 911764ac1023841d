import { describe, expect, it } from 'vitest'
import { firstChatModel } from './modelNames'

describe('the model a provider offers first for conversation', () => {
  it('passes over embedding, picture and speech models', () => {
    expect(firstChatModel(['dall-e-3', 'text-embedding-3-small', 'gpt-4o-mini', 'gpt-4o'])).toBe('gpt-4o-mini')
    expect(firstChatModel(['nomic-embed-text:latest', 'llama3.2:latest'])).toBe('llama3.2:latest')
    expect(firstChatModel(['whisper-1'])).toBe('whisper-1')
    expect(firstChatModel([])).toBeUndefined()
  })
})
