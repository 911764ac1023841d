import type { Node } from '@shared/contract'
import { tokenCount } from '../kernel/tokens'
import type { Usage } from '../llm/types'

/** Usage over several rounds of one reply (tool calls make more than one request). */
export function addUsage(a: Usage | null, b: Usage | null): Usage | null {
  if (!a || !b) return a ?? b
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
  }
}

/** The node's stats (seed §4.1): the prompt side timed to the first token, the reply from there to the end. */
export function replyStats(
  started: number,
  firstAt: number | null,
  ended: number,
  usage: Usage | null,
  /** Our count of what was sent, asked only when the provider reported no usage. */
  promptCount: () => number,
  reply: string,
): Node['metadata']['stats'] {
  const promptTokens = usage?.prompt_tokens ?? promptCount()
  const replyTokens = usage?.completion_tokens ?? tokenCount(reply)
  const waited = ((firstAt ?? ended) - started) / 1000
  const generating = (ended - (firstAt ?? ended)) / 1000
  const round = (n: number) => Math.round(n * 100) / 100
  return {
    user: { count: promptTokens, duration: round(waited), rate: waited > 0 ? round(promptTokens / waited) : 0 },
    assistant: {
      count: replyTokens,
      duration: round(generating),
      rate: generating > 0 ? round(replyTokens / generating) : 0,
    },
  }
}
