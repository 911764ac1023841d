import { test as base } from '@playwright/test'
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '../tests/support/fakeLlm'
import { llmEnv, startServer, type Server } from '../tests/support/serveProcess'
import { AppPage } from './pages/app.page'
import { GraphPage } from './pages/graph.page'

export const test = base.extend<{
  /** More environment for the app under test (`test.use({ serverEnv })`), beside the fake LLM's. */
  serverEnv: NodeJS.ProcessEnv
  llm: FakeLlm
  server: Server
  app: AppPage
  graph: GraphPage
}>({
  serverEnv: [{}, { option: true }],
  // eslint-disable-next-line no-empty-pattern
  llm: async ({}, use) => {
    const llm = await startFakeLlm()
    await use(llm)
    await llm.close()
  },
  server: async ({ llm, serverEnv }, use) => {
    const server = await startServer({ env: { ...llmEnv(llm), ...serverEnv } })
    await use(server)
    await server.stop()
  },
  app: async ({ page, server }, use) => {
    await use(new AppPage(page, server.url))
  },
  graph: async ({ page, server }, use) => {
    await use(new GraphPage(page, server.wsUrl))
  },
})

/**
 * The OpenAI-compatible chat requests that asked for a reply, in order. Memory jobs and the pack's
 * intent call ask for structured output (`response_format`) and may come after a reply's request:
 * a test reading "the last request" must not pick one of theirs.
 */
export function replyRequests(llm: FakeLlm): RecordedRequest[] {
  return llm.requests.filter(
    (r) => r.path === '/v1/chat/completions' && !(r.body as { response_format?: unknown } | undefined)?.response_format,
  )
}

export { expect } from '@playwright/test'
export { llmEnv, startServer, type Server, type ServerOptions } from '../tests/support/serveProcess'
