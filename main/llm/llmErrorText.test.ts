import { describe, expect, it } from 'vitest'
import { LlmError, fromStatus, serverName } from './llmError'
import { llmErrorText, retryingText } from './llmErrorText'

describe('provider failures in the UI language', () => {
  it('translates every sentence fromStatus writes, and leaves English alone', () => {
    const cases: Array<[LlmError, string]> = [
      [fromStatus('openai', 401, 'gpt-4o'), 'OpenAI の API キーが正しくありません'],
      [fromStatus('gemini', 404, 'gemini-x'), 'Gemini にモデル「gemini-x」がありません'],
      [fromStatus('openrouter', 429, 'm'), 'OpenRouter が混み合っています（リクエスト制限中）'],
      [fromStatus('openai', 400, 'm', 'context too long'), 'OpenAI がリクエストを拒否しました: context too long'],
      [fromStatus('ollama', 503, 'm'), 'Ollama でサーバーエラーが起きました（503）'],
      [fromStatus('openai', undefined, 'm'), 'OpenAI に接続できませんでした'],
      // A server at the user's own address is named by it, its label in Japanese too.
      [
        fromStatus('openai', 401, 'm', undefined, null, serverName('openai', 'http://localhost:1234/v1')),
        'http://localhost:1234/v1（OpenAI 互換）の API キーが正しくありません',
      ],
    ]
    for (const [error, japanese] of cases) {
      expect(llmErrorText(error.message, 'ja')).toBe(japanese)
      expect(llmErrorText(error.message, 'en')).toBe(error.message)
    }
  })

  it('keeps a sentence it does not know, and says when it retries', () => {
    expect(llmErrorText('something new happened', 'ja')).toBe('something new happened')
    expect(retryingText('OpenAI is rate limiting requests', 4, 'ja')).toBe(
      'OpenAI が混み合っています（リクエスト制限中）。4 秒後に再試行します',
    )
    expect(retryingText('OpenAI is rate limiting requests', 4, 'en')).toBe(
      'OpenAI is rate limiting requests, retrying in 4 s',
    )
  })
})
