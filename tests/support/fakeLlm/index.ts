// A local server speaking OpenAI's, Gemini's and Ollama's wire protocols, scripted per test.
//
//   const fake = await startFakeLlm()
//   fake.script({ provider: 'openai', reply: 'Hello there', chunks: ['Hello ', 'there'], times: 1 })
//   const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${fake.url}/v1` })
//   const gemini = new GoogleGenAI({ apiKey: 'gemini-test', httpOptions: { baseUrl: fake.url } })
//   await fetch(`${fake.url}/api/chat`, …)                 // Ollama
//   expect(fake.requests.at(-1)?.body).toMatchObject({ … })
//   await fake.close()

import type { AddressInfo } from 'node:net'
import type { Config } from './context'
import { defaultModels } from './models'
import { PictureLinks } from './pictures'
import { RuleBook } from './scripts'
import { createFakeServer } from './server'
import type { FakeLlm, FakeLlmOptions, RecordedRequest } from './types'

export type * from './types'

/** Starts the fake on 127.0.0.1 with a free port. Call `close()` when done (e.g. in afterEach). */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const config: Config = {
    openaiKey: options.openaiKey ?? 'sk-test',
    geminiKey: options.geminiKey ?? 'gemini-test',
    models: {
      openai: options.models?.openai ?? defaultModels.openai,
      gemini: options.models?.gemini ?? defaultModels.gemini,
      ollama: options.models?.ollama ?? defaultModels.ollama,
    },
    embeddingDimensions: options.embeddingDimensions ?? 8,
    meanings: [],
  }
  const rules = new RuleBook()
  const requests: RecordedRequest[] = []
  const closing = new AbortController()
  let seq = 0
  const nextId = (prefix: string) => `${prefix}${++seq}`
  const links = new PictureLinks()
  const kept = options.keepRequests === false ? null : requests
  const server = createFakeServer({ rules, config, requests: kept, closing: closing.signal, nextId, links })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo

  let closed: Promise<void> | null = null
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (rule) => rules.add(rule),
    meaning: (words) => void config.meanings.push([...words]),
    reset() {
      rules.clear()
      config.meanings.length = 0
      requests.length = 0
      links.clear()
      seq = 0
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort()
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closed
    },
  }
}
