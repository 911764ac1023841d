import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

/**
 * Tokens as OpenAI's o200k encoding counts them. Other providers count a little differently;
 * budgets leave headroom for that. One function so a per-model tokenizer can replace it later.
 */
export function tokenCount(text: string): number {
  return text ? countTokens(text) : 0
}
