import { test as base } from '@playwright/test'
import { startFakeLlm, type FakeLlm } from '../tests/support/fakeLlm'
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

export { expect } from '@playwright/test'
export { llmEnv, startServer, type Server, type ServerOptions } from '../tests/support/serveProcess'
