// The provider-failure sentences, in Japanese: shared, so the main process words a status in
// the UI's language and a window re-words a stored failure when the language changes.

type Language = 'ja' | 'en'

/**
 * The provider-failure sentences of llmError.ts and the connectors, in Japanese. They sit
 * next to one another so a new English sentence gets its translation in the same change;
 * an unknown sentence is shown as it is rather than lost.
 */
const ja: Array<[RegExp, string]> = [
  [/^invalid API key for (.+)$/, '$1 の API キーが正しくありません'],
  [/^model not found on (.+?): (.+)$/, '$1 にモデル「$2」がありません'],
  [/^(.+) is rate limiting requests$/, '$1 が混み合っています（リクエスト制限中）'],
  [/^(.+) refused the request: (.+)$/, '$1 がリクエストを拒否しました: $2'],
  [/^(.+) refused the request$/, '$1 がリクエストを拒否しました'],
  [/^(.+) had a server error \((\d+)\)$/, '$1 でサーバーエラーが起きました（$2）'],
  [/^(.+) did not answer in time$/, '$1 から時間内に応答がありませんでした'],
  [/^(.+) stopped sending for (\d+(?:\.\d+)?) s$/, '$1 からの送信が $2 秒止まりました'],
  [/^the connection to (.+) broke off mid-reply$/, '$1 との接続が応答の途中で切れました'],
  [/^could not reach (.+)$/, '$1 に接続できませんでした'],
  [
    /^(.+) is not set up: add it in Settings \(or set its API key in the environment\)$/,
    '$1 が設定されていません。設定で追加してください（または環境変数で API キーを設定）',
  ],
  [
    /^Gemini needs an API key: add it in Settings \(or set GEMINI_API_KEY\)$/,
    'Gemini には API キーが必要です。設定で追加してください（または GEMINI_API_KEY を設定）',
  ],
  [/^Ollama failed mid-reply: (.+)$/, 'Ollama が応答の途中で失敗しました: $1'],
  [/^Ollama sent a reply that is not JSON$/, 'Ollama の応答が JSON ではありませんでした'],
]

/**
 * How llmError.ts's serverName labels a server at an address of the user's own ("http://… (OpenAI-compatible)"):
 * inside a Japanese sentence the label is Japanese too, as Settings words it (its full-width bracket needs no space after).
 */
const COMPATIBLE = / \(OpenAI-compatible\) ?/g

/** A provider failure in the UI's language. */
export function llmErrorText(message: string, language: Language): string {
  if (language !== 'ja') return message
  for (const [pattern, replacement] of ja)
    if (pattern.test(message)) return message.replace(pattern, replacement).replace(COMPATIBLE, '（OpenAI 互換）')
  return message
}
