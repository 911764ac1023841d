// What every connector test needs: a fresh fake LLM server per test, a connector pointed at
// it, and small readers for the events a chat streams.

import { afterEach, beforeEach, expect } from 'vitest'
import { startFakeLlm, type FakeLlm, type Provider } from '../fakeLlm'
import { LlmError } from '../../../main/llm/llmError'
import type {
  ChatEvent,
  ChatMessage,
  ChatRequest,
  Connector,
  GeneratedImage,
  ToolCall,
  ToolSpec,
} from '../../../main/llm/types'

/** The settings the shared tests vary; each connector's own config takes them under these names. */
export interface ConnectorOptions {
  apiKey?: string
  connectTimeoutMs?: number
  idleTimeoutMs?: number
  imageTimeoutMs?: number
}

type RequestBody = Record<string, unknown>

export interface ConnectorSetup {
  /** The fake's dialect, which is also the prefix of the model refs the connector lists. */
  provider: Provider
  /** A chat model the fake knows. */
  model: string
  /** A connector talking to a server at `url` (the fake's root; add `/v1` and the like here). */
  make(url: string, options?: ConnectorOptions): Connector
}

export interface ConnectorHarness extends ConnectorSetup {
  /** This test's fake server. */
  readonly fake: FakeLlm
  connector(options?: ConnectorOptions): Connector
  /** Runs a chat that must fail; returns the error and the events seen before it. */
  failing(request?: Partial<ChatRequest>, options?: ConnectorOptions): Promise<{ error: LlmError; seen: ChatEvent[] }>
  /** The JSON body of the last request the fake received. */
  lastBody(): RequestBody
  /** Runs a chat of `request` (a plain "hi" by default) to its end; returns the body the fake received. */
  sent(request: Partial<ChatRequest>): Promise<RequestBody>
  /**
   * A tool round trip (`weatherTrip` unless told): the model calls `tool` with `args`; the
   * result goes back and the model answers `answer`. Asserts what holds for every provider;
   * the two request bodies are returned for the provider's own shape checks.
   */
  roundTripToolCall(trip?: ToolTrip): Promise<{ call: ToolCall; withTools: RequestBody; withResult: RequestBody }>
}

export interface ToolTrip {
  tool: ToolSpec
  args: Record<string, unknown>
  question: string
  /** The tool's result, as the app would send it back. */
  result: string
  answer: string
}

/** Starts a fake LLM server before each test and closes it after; the getter gives this test's one. */
export function useFakeLlm(): () => FakeLlm {
  let fake: FakeLlm | undefined
  beforeEach(async () => {
    fake = await startFakeLlm()
  })
  afterEach(() => fake?.close())
  return () => {
    if (!fake) throw new Error('the fake LLM runs only inside a test')
    return fake
  }
}

/** Registers the per-test fake server and returns the helpers bound to it and to `setup`. */
export function useConnectorHarness(setup: ConnectorSetup): ConnectorHarness {
  const current = useFakeLlm()
  const connector = (options: ConnectorOptions = {}) => setup.make(current().url, options)
  const lastBody = () => current().requests.at(-1)?.body as RequestBody

  return {
    ...setup,
    get fake() {
      return current()
    },
    connector,
    lastBody,

    async sent(request) {
      await collect(connector().chat({ model: setup.model, messages: ask('hi'), ...request }))
      return lastBody()
    },

    async failing(request = {}, options = {}) {
      const seen: ChatEvent[] = []
      try {
        for await (const event of connector(options).chat({ model: setup.model, messages: ask('hi'), ...request })) {
          seen.push(event)
        }
      } catch (e) {
        expect(e).toBeInstanceOf(LlmError)
        return { error: e as LlmError, seen }
      }
      throw new Error('the chat did not fail')
    },

    async roundTripToolCall({ tool, args, question, result, answer } = weatherTrip) {
      const { provider, model } = setup
      current().script({ provider, reply: { toolCalls: [{ name: tool.name, arguments: args }] }, times: 1 })
      current().script({ provider, reply: answer })
      const chat = connector()
      const first = await collect(chat.chat({ model, messages: ask(question), tools: [tool] }))
      const call = first.find((e) => e.type === 'tool_call')?.call
      expect(call).toMatchObject({ name: tool.name, id: expect.any(String) })
      expect(JSON.parse(call?.arguments ?? '')).toEqual(args)
      expect(first.at(-1)).toMatchObject({ type: 'done', finish_reason: 'tool_calls' })
      if (!call) throw new Error('no tool call')
      const withTools = lastBody()

      const second = await collect(
        chat.chat({
          model,
          tools: [tool],
          messages: [
            ...ask(question),
            { role: 'assistant', content: '', tool_calls: [call] },
            { role: 'tool', tool_call_id: call.id, name: tool.name, content: result },
          ],
        }),
      )
      expect(deltas(second).join('')).toBe(answer)
      return { call, withTools, withResult: lastBody() }
    },
  }
}

export const ask = (text: string): ChatMessage[] => [{ role: 'user', content: text }]

/** The bytes of a generated picture, after checking its mime is what they show. */
export function pictureBytes(image: GeneratedImage): Buffer {
  const bytes = Buffer.from(image.data_base64, 'base64')
  expect(image.mime).toBe('image/png')
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

/** A tiny PNG header, enough to travel as an image. */
export const png = 'iVBORw0KGgo='

/** A user message with `text` and the PNG beside it. */
export const askWithImage = (text: string): ChatMessage[] => [
  {
    role: 'user',
    content: [
      { type: 'text', text },
      { type: 'image', mime: 'image/png', data_base64: png },
    ],
  },
]

export async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

export const deltas = (events: ChatEvent[]) => events.flatMap((e) => (e.type === 'delta' ? [e.text] : []))

/** The one tool round trip every connector test runs; each checks the shapes its provider sends. */
export const weatherTrip: ToolTrip = {
  tool: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  args: { city: 'Kyoto' },
  question: 'weather in Kyoto?',
  result: '{"celsius":21}',
  answer: 'It is 21 °C.',
}

/** Every request option at once, so each provider can show where it puts them. */
export const withOptions: Partial<ChatRequest> = {
  messages: [{ role: 'system', content: 'be kind' }, ...ask('hi')],
  temperature: 0.3,
  maxTokens: 64,
  json: true,
}
