import { afterEach } from 'vitest'
import type { EventData, EventName } from '@shared/contract'
import { startCore, type Core, type CoreOptions } from '../../main/core'
import { appSchema } from '../../main/appSchema'
import { openDatabase } from '../../main/db/open'
import { EventBus } from '../../main/kernel/events'
import { ensureHome } from '../../main/kernel/home'
import { SettingsService } from '../../main/settings/settingsService'
import { startFakeLlm, type FakeLlm } from './fakeLlm'
import { sourceWorker } from './sourceWorker'
import { useTempHome } from './tempHome'

export interface LlmHarness {
  core: Core
  fake: FakeLlm
  /** Every event the core emitted, in order. */
  events: Array<{ event: EventName; data: unknown }>
  call<T = unknown>(method: string, input: unknown): Promise<T>
  /** Resolves with the first event of this name matching `test`. */
  next<E extends EventName>(event: E, test?: (data: EventData<E>) => boolean): Promise<EventData<E>>
}

/**
 * A real core (temp home, real SQLite) whose OpenAI-compatible provider is a fake LLM server
 * over real HTTP. Cleaned up after each test.
 */
type StartOptions = Partial<CoreOptions> & {
  openaiKey?: string
  /** The UI language saved before the core starts (the first-run world is made in it). */
  language?: 'ja' | 'en'
}

export function useLlmCore(defaults: StartOptions = {}): (options?: StartOptions) => Promise<LlmHarness> {
  const home = useTempHome()
  const open: Array<{ core: Core; fake: FakeLlm }> = []
  afterEach(async () => {
    for (const { core, fake } of open.splice(0)) {
      await core.dispose()
      await fake.close()
    }
  })
  return async (given = {}) => {
    const { language, ...options } = { ...defaults, ...given }
    const fake = await startFakeLlm()
    const dir = home()
    if (language) saveLanguage(dir, language)
    const env = {
      OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: options.openaiKey ?? 'sk-test',
      LOOMVERSE_DEFAULT_MODEL: 'openai:gpt-4o-mini',
      LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:gpt-4o-mini',
    }
    const core = startCore({
      home: dir,
      mode: 'browser',
      log: () => {},
      memoryWorker: sourceWorker('memory'),
      ...options,
      env: { ...env, ...options.env },
    })
    open.push({ core, fake })
    const events: LlmHarness['events'] = []
    const waiters: Array<{ event: EventName; test: (d: unknown) => boolean; resolve: (d: unknown) => void }> = []
    core.bus.listen((event, data) => {
      events.push({ event, data })
      for (const w of [...waiters]) {
        if (w.event === event && w.test(data)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(data)
        }
      }
    })
    return {
      core,
      fake,
      events,
      async call<T>(method: string, input: unknown): Promise<T> {
        const r = await core.router.call(method, input, { transport: 'internal' })
        if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`)
        return r.value as T
      },
      next<E extends EventName>(event: E, test: (data: EventData<E>) => boolean = () => true) {
        return new Promise<EventData<E>>((resolve) =>
          waiters.push({ event, test: test as (d: unknown) => boolean, resolve: resolve as (d: unknown) => void }),
        )
      },
    }
  }
}

/** Writes the language setting into a new home's database, as a user who chose it before would have. */
function saveLanguage(dir: string, language: 'ja' | 'en'): void {
  const { db } = openDatabase(ensureHome(dir).db, { domains: appSchema, label: 'loomverse.db' })
  new SettingsService(db, new EventBus()).update({ language })
  db.close()
}

/** Sends a prompt in a flow, the fake model answering `reply`, and waits for the reply to land; returns the node. */
export async function exchange(
  h: LlmHarness,
  input: { flowId: string; prompt: string; reply: string; parentId?: string },
): Promise<string> {
  h.fake.script({ provider: 'openai', model: 'gpt-4o-mini', times: 1, reply: input.reply })
  const done = h.next('chat_status', (d) => d.state === 'done' || d.state === 'failed')
  const { node_id } = await h.call<{ node_id: string }>('chat_send', {
    flow_id: input.flowId,
    prompt: input.prompt,
    ...(input.parentId ? { parent_id: input.parentId } : {}),
  })
  const landed = await done
  if (landed.node_id !== node_id || landed.state !== 'done')
    throw new Error(`the reply to "${input.prompt}" did not land: ${JSON.stringify(landed)}`)
  return node_id
}
