// OpenAI's POST /v1/images/generations as the real API answers it: the GPT image models always
// send base64 and refuse `response_format`; DALL·E sends a link unless asked for `b64_json`.

import { bodyObject, type Context } from './context'
import { beginCall, modelInBody, sendFailure } from './respond'
import { pictureFor } from './pictures'
import { countTokens } from './scripts'
import { sendJson } from './stream'

const created = 1_700_000_000
/** What gpt-image-1 bills for one low-quality square picture. */
const outputTokensPerPicture = 272

export async function imageGenerations(ctx: Context): Promise<void> {
  const body = bodyObject(ctx)
  // The API's own default when no model is named.
  const model = modelInBody(ctx) ?? 'dall-e-2'
  const prompt = body.prompt
  if (typeof prompt !== 'string' || prompt === '') {
    return badParameter(ctx, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter')
  }
  const gptImage = /^(gpt-image|chatgpt-image)/.test(model)
  const format = body.response_format ?? undefined
  if (gptImage && format !== undefined) {
    return badParameter(ctx, "Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter')
  }
  if (format !== undefined && format !== 'url' && format !== 'b64_json') {
    const message = `Invalid value: '${String(format)}'. Supported values are: 'url' and 'b64_json'.`
    return badParameter(ctx, message, 'response_format', 'invalid_value')
  }
  const n = body.n ?? 1
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10) {
    return badParameter(
      ctx,
      `Invalid 'n': must be a whole number from 1 to 10, got ${String(n)}.`,
      'n',
      'invalid_value',
    )
  }

  const rule = await beginCall(ctx, { provider: 'openai', model, endpoint: 'image', streaming: false, prompt })
  if (rule === undefined) return

  const asLink = !gptImage && format !== 'b64_json'
  const data = Array.from({ length: n }, (_, i) => {
    const png = pictureFor(model, i === 0 ? prompt : `${prompt}\u0000${i}`)
    const revised = model === 'dall-e-3' ? { revised_prompt: prompt } : {}
    if (!asLink) return { b64_json: png.toString('base64'), ...revised }
    const path = ctx.links.add(ctx.nextId('img-fake-'), png)
    return { url: `http://${ctx.req.headers.host}${path}`, ...revised }
  })
  if (!gptImage) return sendJson(ctx.res, 200, { created, data })
  const input = countTokens(prompt)
  const output = outputTokensPerPicture * n
  sendJson(ctx.res, 200, {
    created,
    data,
    background: 'opaque',
    output_format: 'png',
    usage: {
      input_tokens: input,
      input_tokens_details: { image_tokens: 0, text_tokens: input },
      output_tokens: output,
      total_tokens: input + output,
    },
  })
}

function badParameter(ctx: Context, message: string, param: string, code: string): void {
  sendFailure(ctx, 'openai', { kind: 'bad_request', message, param, code })
}
