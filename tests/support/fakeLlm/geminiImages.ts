// Pictures from Gemini's generateContent: a request whose generationConfig asks for the IMAGE
// modality gets an inlineData part (base64 PNG) after a line of text, as Gemini image models answer.

import type { Context } from './context'
import { pictureFor } from './pictures'
import { countTokens } from './scripts'
import { sendJson, sse, streamFrames, type Frame } from './stream'
import type { ScriptRule } from './types'

/** What Gemini bills for one picture of up to 1024 × 1024. */
const tokensPerPicture = 1290

/** Whether `generationConfig.responseModalities` names IMAGE. */
export function wantsPicture(body: Record<string, unknown>): boolean {
  const config = body.generationConfig as { responseModalities?: unknown } | undefined
  const modalities = config?.responseModalities
  return Array.isArray(modalities) && modalities.some((m) => String(m).toUpperCase() === 'IMAGE')
}

/** Only image models can answer a picture; Gemini refuses the modality for the others. */
export function drawsPictures(model: string): boolean {
  return model.includes('image')
}

/** The text-and-picture answer; a scripted `reply` is a refusal in words, with no picture. */
export async function answerPicture(
  ctx: Context,
  call: { model: string; prompt: string; promptTokenCount: number; streaming: boolean; rule: ScriptRule | null },
): Promise<void> {
  const { model, prompt, promptTokenCount, streaming, rule } = call
  const refusal = typeof rule?.reply === 'string' ? rule.reply : rule?.reply?.text
  const text = refusal ?? 'Here is the picture.'
  const picture = refusal === undefined ? pictureFor(model, prompt).toString('base64') : null
  const candidatesTokenCount = countTokens(text) + (picture ? tokensPerPicture : 0)
  const usageMetadata = {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount,
  }
  const responseId = ctx.nextId('fake-response-')
  const response = (parts: unknown[], finish?: 'STOP') => ({
    candidates: [{ content: { parts, role: 'model' }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
    ...(finish ? { usageMetadata } : {}),
    modelVersion: model,
    responseId,
  })
  const pictureParts = picture ? [{ inlineData: { mimeType: 'image/png', data: picture } }] : []

  if (!streaming) return sendJson(ctx.res, 200, response([{ text }, ...pictureParts], 'STOP'))
  const event = (payload: unknown) => sse(payload, '\r\n\r\n')
  const frames: Frame[] = [
    { kind: 'delta', data: event(response([{ text }])) },
    ...pictureParts.map((part): Frame => ({ kind: 'delta', data: event(response([part])) })),
    { kind: 'tail', data: event(response([{ text: '' }], 'STOP')) },
  ]
  await streamFrames(ctx, 'text/event-stream', frames, rule)
}
