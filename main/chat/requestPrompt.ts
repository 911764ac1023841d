import type { ContextPreview } from '@shared/contract'
import type { Language } from '../kernel/language'
import type { ChatMessage } from '../llm/types'
import type { StoredRequest } from '../memory/memory'

/** What a model is told, per language, when a program hands the persona something to pass on. */
const INSTRUCTIONS = {
  notification: {
    en: (source: string, text: string) =>
      `A notification arrived from ${source}:\n\n${text}\n\nTell your partner about it in your own words, briefly.`,
    ja: (source: string, text: string) =>
      `${source} から通知が届きました:\n\n${text}\n\nあなた自身の言葉で、パートナーに手短に伝えてください。`,
  },
  image: {
    en: 'Describe what this picture shows in two or three sentences.',
    ja: 'この画像に写っているものを二、三文で説明してください。',
  },
}

/** What stands for a meta request's words wherever they are kept: they are instructions, not something said. */
export const REDACTED = '[redacted]'

/** The node's prompt in the persona's External flow. */
export function requestLabel(request: StoredRequest): string {
  return request.type === 'notification' ? `[${request.source_system}] ${request.text}` : REDACTED
}

/** The source a notification's label names (requestLabel's inverse), given its text; null when the label is not one. */
export function labelledSource(label: string, text: string): string | null {
  const tail = `] ${text}`
  return label.startsWith('[') && label.length > tail.length + 1 && label.endsWith(tail)
    ? label.slice(1, -tail.length)
    : null
}

/** What the persona is asked, in the place of the user's words (with the pictures in words, if any). */
export function requestAsk(request: StoredRequest, imageSummary: string | null): string {
  const ask =
    request.type === 'notification'
      ? INSTRUCTIONS.notification[request.language](request.source_system, request.text)
      : requestWords(request)
  return imageSummary ? `${ask}\n\n[picture] ${imageSummary}` : ask
}

/** The request's own words: what memory and the lorebooks search for it. */
export function requestWords(request: StoredRequest): string {
  return request.type === 'notification' ? request.text : `${request.instruction}\n\n${request.payload_text}`
}

/** The vision model's request for the pictures in words. */
export function describeMessages(images: NonNullable<StoredRequest['images']>, language: Language): ChatMessage[] {
  const content = [
    { type: 'text' as const, text: INSTRUCTIONS.image[language] },
    ...images.map((i) => ({ type: 'image' as const, mime: i.mime, data_base64: i.data_base64 })),
  ]
  return [{ role: 'user', content }]
}

/** The `external_reply` event's data, in seed 004's shape. */
export function replyData(request: StoredRequest, reply: string): { system_text?: string; message: string } {
  return request.type === 'notification' ? { system_text: request.text, message: reply } : { message: reply }
}

/** The sent context as the inspector keeps it, with the words never to be kept (a meta request's) redacted. */
export function redactedContext(context: ContextPreview, words: string): ContextPreview {
  const redact = (text: string) => text.replaceAll(words, REDACTED)
  return {
    ...context,
    parts: context.parts.map((p) => ({ ...p, text: redact(p.text) })),
    messages: context.messages.map((m) => ({ ...m, content: redact(m.content) })),
  }
}
