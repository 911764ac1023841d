import type { Persona } from '@shared/contract'
import { systemText } from '../graph/flowContext'
import type { Language } from '../kernel/language'
import type { ChatMessage } from '../llm/types'
import type { StoredRequest } from './externalRequests'

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

/** What the placeholder episode keeps as the user's side: a meta request's words are instructions, not something said. */
export function episodeUserText(request: StoredRequest): string {
  return request.type === 'meta_request' ? '[redacted]' : request.text
}

/** The node's prompt in the persona's External flow. */
export function externalNodePrompt(request: StoredRequest): string {
  return request.type === 'notification' ? `[${request.source_system}] ${request.text}` : '[redacted]'
}

/** The words the MemoryPack is searched with. */
export function packQuery(request: StoredRequest): string {
  return request.type === 'notification' ? request.text : `${request.instruction}\n\n${request.payload_text}`
}

/** The persona's voice and memory, then what it is asked (with the pictures in words, if any). */
export function replyMessages(
  persona: Persona,
  request: StoredRequest,
  pack: string | null,
  imageSummary: string | null,
): ChatMessage[] {
  const ask =
    request.type === 'notification'
      ? INSTRUCTIONS.notification[request.language](request.source_system, request.text)
      : `${request.instruction}\n\n${request.payload_text}`
  return [
    { role: 'system', content: [systemText('', persona), pack].filter(Boolean).join('\n\n') },
    { role: 'user', content: imageSummary ? `${ask}\n\n[picture] ${imageSummary}` : ask },
  ]
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
