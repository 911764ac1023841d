import { describe, expect, it, vi } from 'vitest'
import { AppError } from '@shared/errors'
import { contract, type AppInfo } from '@shared/contract'
import { combineHandlers, createRouter, type Handlers } from './router'
import { defaultSettings } from '../settings/settingsService'

const info: AppInfo = {
  name: 'loomverse',
  version: '0.0.0',
  mode: 'browser',
  versions: { node: '20', electron: null, sqlite: '3', sqlite_vec: 'v0' },
  platform: 'linux',
  home: '/h',
  db: { path: '/h/loomverse.db', schema_version: 1 },
}

const defaults = defaultSettings

/** Only the methods these tests call; the router looks handlers up by name. */
function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const some: Partial<Handlers> = {
    app_info: () => info,
    get_settings: () => defaults,
    update_settings: (patch) => ({ ...defaults, ...patch }),
    ...overrides,
  }
  return some as Handlers
}

const ctx = { transport: 'internal' } as const

describe('router', () => {
  it('answers a valid call with the handler value', async () => {
    const router = createRouter(handlers(), { checkOutput: true })
    expect(await router.call('update_settings', { theme: 'dark' }, ctx)).toEqual({
      ok: true,
      value: { ...defaultSettings, theme: 'dark' },
    })
  })

  it('refuses invalid input with bad_input naming the zod path, without running the handler', async () => {
    const update = vi.fn()
    const router = createRouter(handlers({ update_settings: update }))
    const result = await router.call('update_settings', { theme: 'purple' }, ctx)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('bad_input')
    expect(result.error.message).toMatch(/^update_settings: theme: /)
    expect(update).not.toHaveBeenCalled()
  })

  it('refuses keys the contract does not know', async () => {
    const router = createRouter(handlers())
    const result = await router.call('update_settings', { colour: 'red' }, ctx)
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(!result.ok && result.error.message).toContain('colour')
  })

  it('answers unknown_method for a name outside the contract, including prototype names', async () => {
    const router = createRouter(handlers())
    for (const name of ['drop_everything', 'toString', '__proto__', 'constructor']) {
      expect(await router.call(name, {}, ctx)).toEqual({
        ok: false,
        error: { code: 'unknown_method', message: `unknown method "${name}"` },
      })
    }
  })

  it('turns a thrown AppError into its code, and anything else into internal, never a throw', async () => {
    const onError = vi.fn()
    const router = createRouter(
      handlers({
        get_settings: () => {
          throw new AppError('not_found', 'no such thing')
        },
        app_info: async () => {
          throw new TypeError('boom')
        },
      }),
      { onError },
    )
    expect(await router.call('get_settings', {}, ctx)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no such thing' },
    })
    expect(await router.call('app_info', {}, ctx)).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } })
    expect(onError).toHaveBeenCalledTimes(1) // expected failures (not_found) are not logged as crashes
  })

  it('catches a handler that returns the wrong shape when output checking is on', async () => {
    const router = createRouter(handlers({ get_settings: () => ({ language: 'fr' }) as never }), { checkOutput: true })
    const result = await router.call('get_settings', {}, ctx)
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(!result.ok && result.error.message).toMatch(/get_settings returned a bad shape/)
  })

  it('treats a missing input as an empty object', async () => {
    const router = createRouter(handlers())
    expect(await router.call('app_info', undefined, ctx)).toEqual({ ok: true, value: info })
  })
})

describe('combineHandlers', () => {
  const everyMethod = () =>
    Object.fromEntries(Object.keys(contract).map((m) => [m, () => null])) as unknown as Partial<Handlers>

  it('refuses a method answered by two domains, naming both', () => {
    expect(() => combineHandlers({ graph: everyMethod(), settings: { get_settings: () => defaults } })).toThrow(
      '"get_settings" is answered by both the graph and the settings handlers',
    )
  })

  it('refuses a contract method nobody answers, and a handler the contract does not know', () => {
    const all = everyMethod() as Record<string, unknown>
    delete all.app_info
    expect(() => combineHandlers({ rest: all as Partial<Handlers> })).toThrow('no handler for app_info')
    expect(() => combineHandlers({ rest: everyMethod(), extra: { nope: () => 1 } as Partial<Handlers> })).toThrow(
      'handlers for methods the contract does not have: nope',
    )
  })

  it('serves the one map the modules make', async () => {
    const { app_info: _, ...rest } = everyMethod() as Record<string, unknown>
    const router = createRouter(combineHandlers({ app: { app_info: () => info }, rest: rest as Partial<Handlers> }))
    expect(await router.call('app_info', {}, ctx)).toEqual({ ok: true, value: info })
  })
})
