import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { appSchema } from '../appSchema'
import { totalSteps } from '../db/domainMigrations'
import { defaultSettings } from '../settings/settingsService'
import { deadPid } from '../../tests/support/crashLeftovers'
import { useTempHome } from '../../tests/support/tempHome'
import { ask, collectEvents, httpGet, openWs } from '../../tests/support/wsProbe'
import { serve, type Serving } from './serve'
import { tokenFile } from './tokenFile'

const home = useTempHome()
let serving: Serving | null = null
const sockets: WebSocket[] = []

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.close()
  await serving?.stop()
  serving = null
})

async function start(token?: string) {
  const dir = home()
  const web = join(dir, 'web')
  mkdirSync(join(web, 'assets'), { recursive: true })
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Loomverse</title>')
  writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(dir, 'secret.txt'), 'outside the web root')
  serving = await serve({ home: join(dir, 'data'), port: 0, token, staticDir: web })
  return serving
}

async function connected(s: Serving, headers: Record<string, string> = {}): Promise<WebSocket> {
  const ws = await openWs(`ws://127.0.0.1:${s.host.port}/ws?token=${s.token}`, headers)
  if ('refused' in ws) throw new Error(`refused with ${ws.refused}`)
  sockets.push(ws)
  return ws
}

describe('loopback host: HTTP', () => {
  it('serves the renderer with the token and a strict CSP, and sets a per-port cookie for its assets', async () => {
    const s = await start()
    const page = await httpGet(s.host.port, `/?token=${s.token}`)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Loomverse</title>')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    const cookie = String(page.headers['set-cookie'])
    expect(cookie).toMatch(new RegExp(`^loomverse_token_${s.host.port}=${s.token}; Path=/; HttpOnly; SameSite=Strict`))
    const asset = await httpGet(s.host.port, '/assets/app.js', { cookie: cookie.split(';')[0]! })
    expect(asset.status).toBe(200)
    expect(asset.headers['content-type']).toMatch(/javascript/)
  })

  it('accepts the token as a Bearer header', async () => {
    const s = await start()
    expect((await httpGet(s.host.port, '/', { authorization: `Bearer ${s.token}` })).status).toBe(200)
  })

  it('answers 401 with no token or a wrong one, and never serves the page', async () => {
    const s = await start()
    for (const answer of [await httpGet(s.host.port, '/'), await httpGet(s.host.port, '/?token=wrong')]) {
      expect(answer.status).toBe(401)
      expect(answer.body).not.toContain('Loomverse</title>')
    }
    const otherPortCookie = await httpGet(s.host.port, '/', { cookie: `loomverse_token_1=${s.token}` })
    expect(otherPortCookie.status).toBe(401)
  })

  it('answers 403 to a foreign Host (DNS rebinding) or Origin even with the right token', async () => {
    const s = await start()
    expect((await httpGet(s.host.port, `/?token=${s.token}`, { host: `evil.example:${s.host.port}` })).status).toBe(403)
    expect((await httpGet(s.host.port, `/?token=${s.token}`, { origin: 'http://evil.example' })).status).toBe(403)
    expect((await httpGet(s.host.port, `/?token=${s.token}`, { host: `localhost:${s.host.port}` })).status).toBe(200)
  })

  it('does not serve files outside the renderer folder', async () => {
    const s = await start()
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/%00']) {
      const answer = await httpGet(s.host.port, `${path}?token=${s.token}`)
      expect(answer.status).toBe(404)
      expect(answer.body).not.toContain('outside the web root')
    }
  })

  it('records url, port and pid in host.json readable by the owner only, and removes it on stop', async () => {
    const s = await start('a-pinned-token-of-enough-length')
    const file = s.core.paths.hostFile
    const record = JSON.parse(readFileSync(file, 'utf8'))
    expect(record).toMatchObject({ port: s.host.port, pid: process.pid, token: 'a-pinned-token-of-enough-length' })
    expect(record.url).toBe(`http://127.0.0.1:${s.host.port}/?token=a-pinned-token-of-enough-length`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    await s.stop()
    serving = null
    expect(() => statSync(file)).toThrow()
  })
})

describe('loopback host: the memory server for agents', () => {
  it('offers MCP at /api/mcp to an API token, read-only unless started with --mcp-allow-writes', async () => {
    const dir = home()
    serving = await serve({ home: join(dir, 'data'), port: 0, staticDir: null })
    const tools = async (s: Serving) => {
      const made = await s.core.router.call('api_token_create', { name: 'agent' }, { transport: 'internal' })
      const { token } = (made as { value: { token: string } }).value
      const client = new Client({ name: 'probe', version: '1' })
      const url = new URL(`http://127.0.0.1:${s.host.port}/api/mcp`)
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      )
      const names = (await client.listTools()).tools.map((t) => t.name)
      await client.close()
      return names
    }
    expect(await tools(serving)).not.toContain('notify')
    await serving.stop()
    serving = await serve({ home: join(dir, 'data'), port: 0, staticDir: null, mcpAllowWrites: true })
    expect(await tools(serving)).toContain('notify')
  })
})

describe('loopback host: one per data home', () => {
  it('refuses a second serve on a home a live host serves, and leaves that host its host.json', async () => {
    const s = await start('first-host-token-0123456789')
    const before = readFileSync(s.core.paths.hostFile, 'utf8')
    const second = serve({ home: s.core.paths.home, port: 0, token: 'second-host-token-012345', staticDir: null })
    await expect(second).rejects.toThrow(
      `a Loomverse host (pid ${process.pid}) is already serving ${s.core.paths.home} on port ${s.host.port}`,
    )
    await expect(second).rejects.not.toThrow(/first-host-token/) // the message never shows the token
    expect(readFileSync(s.core.paths.hostFile, 'utf8')).toBe(before)
    const ws = await connected(s)
    expect(await ask(ws, { id: 1, action: 'app_info' })).toMatchObject({ status: 'success' })
  })

  it('takes over a host.json left by a host that is gone', async () => {
    const dir = join(home(), 'data')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'host.json')
    writeFileSync(file, JSON.stringify({ url: 'http://127.0.0.1:9/?token=x', port: 9, pid: deadPid(), token: 'x' }))
    serving = await serve({ home: dir, port: 0, staticDir: null })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, port: serving.host.port })
  })
})

describe('loopback host: WebSocket', () => {
  it('round-trips app_info in the VizPrompt message shape', async () => {
    const s = await start()
    const ws = await connected(s)
    const reply = await ask(ws, { id: 1, action: 'app_info', data: {} })
    expect(reply).toMatchObject({
      id: 1,
      status: 'success',
      data: { name: 'loomverse', mode: 'browser', db: { schema_version: totalSteps(appSchema) } },
    })
  })

  it('refuses the upgrade before any handler runs: 401 for a bad token, 403 for a foreign Origin or Host', async () => {
    const s = await start()
    const base = `ws://127.0.0.1:${s.host.port}/ws`
    expect(await openWs(`${base}?token=nope`)).toEqual({ refused: 401 })
    expect(await openWs(base)).toEqual({ refused: 401 })
    expect(await openWs(`${base}?token=${s.token}`, { origin: 'https://evil.example' })).toEqual({ refused: 403 })
    expect(await openWs(`${base}?token=${s.token}`, { host: 'attacker.test' })).toEqual({ refused: 403 })
    expect(await openWs(`ws://127.0.0.1:${s.host.port}/other?token=${s.token}`)).toEqual({ refused: 403 })
  })

  it('accepts our own origin, as the page it serves would send', async () => {
    const s = await start()
    await connected(s, { origin: `http://127.0.0.1:${s.host.port}` })
  })

  it('answers bad_input, unknown_method and bad_request as error values and keeps the link open', async () => {
    const s = await start()
    const ws = await connected(s)
    const bad = await ask(ws, { id: 'a', action: 'update_settings', data: { theme: 42 } })
    expect(bad).toMatchObject({ id: 'a', status: 'error', data: null, error: { code: 'bad_input' } })
    expect((bad.error as { message: string }).message).toContain('theme')
    expect(await ask(ws, { id: 'b', action: 'format_disk' })).toMatchObject({
      status: 'error',
      error: { code: 'unknown_method' },
    })
    expect(await ask(ws, '{not json')).toMatchObject({ id: null, status: 'error', error: { code: 'bad_request' } })
    expect(await ask(ws, { id: 'c', data: {} })).toMatchObject({
      id: 'c',
      status: 'error',
      error: { code: 'bad_request' },
    })
    expect(await ask(ws, { id: 'd', action: 'get_settings' })).toMatchObject({ id: 'd', status: 'success' })
  })

  it('delivers events only to clients that subscribed, until they unsubscribe', async () => {
    const s = await start()
    const listener = await connected(s)
    const bystander = await connected(s)
    const heard = collectEvents(listener)
    const overheard = collectEvents(bystander)
    expect(await ask(listener, { id: 1, action: 'subscribe', data: { events: ['settings_updated'] } })).toMatchObject({
      status: 'success',
      data: { events: ['settings_updated'] },
    })
    await ask(bystander, { id: 1, action: 'update_settings', data: { theme: 'dark' } })
    await ask(listener, { id: 2, action: 'unsubscribe', data: { events: ['settings_updated'] } })
    await ask(bystander, { id: 2, action: 'update_settings', data: { theme: 'light' } })
    await ask(listener, { id: 3, action: 'get_settings' }) // a round trip: any stray event would have arrived by now
    expect(heard).toEqual([{ event: 'settings_updated', data: { ...defaultSettings, theme: 'dark' } }])
    expect(overheard).toEqual([])
  })

  it('refuses to subscribe to an event that does not exist', async () => {
    const s = await start()
    const ws = await connected(s)
    expect(await ask(ws, { id: 1, action: 'subscribe', data: { events: ['everything'] } })).toMatchObject({
      status: 'error',
      error: { code: 'bad_input', message: 'subscribe: unknown event everything' },
    })
  })
})

describe('loopback host: the token kept in the data folder', () => {
  it('takes the same token after a restart, from a file only the owner may read; --token and a new token replace it', async () => {
    const first = await start()
    const data = first.core.paths.home
    const kept = first.token
    await first.stop()
    serving = await serve({ home: data, port: 0, staticDir: null })
    expect(serving.token).toBe(kept)
    expect(readFileSync(tokenFile(data), 'utf8')).toBe(`${kept}\n`)
    expect(statSync(tokenFile(data)).mode & 0o777).toBe(0o600)
    await serving.stop()

    serving = await serve({ home: data, port: 0, token: 'chosen-token-0123456789', staticDir: null })
    await serving.stop()
    serving = await serve({ home: data, port: 0, staticDir: null })
    expect(serving.token).toBe('chosen-token-0123456789')
    await serving.stop()
    serving = await serve({ home: data, port: 0, newToken: true, staticDir: null })
    expect(serving.token).not.toBe('chosen-token-0123456789')
    expect(serving.token).toMatch(/^[0-9a-f]{64}$/)
  })

  it('replaces a kept token that is a link or unusable with a new one, and never writes through the link', async () => {
    const data = join(home(), 'data')
    mkdirSync(data, { recursive: true })
    const elsewhere = join(home(), 'elsewhere.txt')
    writeFileSync(elsewhere, 'a-token-someone-else-planted-0123')
    symlinkSync(elsewhere, tokenFile(data))
    serving = await serve({ home: data, port: 0, staticDir: null })
    expect(serving.token).not.toBe('a-token-someone-else-planted-0123')
    expect(readFileSync(elsewhere, 'utf8')).toBe('a-token-someone-else-planted-0123')
    expect(lstatSync(tokenFile(data)).isSymbolicLink()).toBe(false)
  })

  it('renews the token on request: windows with the old one are disconnected, host.json and the file name the new one', async () => {
    const s = await start()
    const old = s.token
    const window = await connected(s)
    const closed = new Promise<number>((resolve) => window.once('close', (code) => resolve(code)))
    const reply = await ask(window, { id: 1, action: 'browser_new_token', data: {} })
    expect(reply).toMatchObject({
      status: 'success',
      data: { url: `http://127.0.0.1:${s.host.port}/?token=${s.token}` },
    })
    expect(await closed).toBe(4001)
    expect(s.token).not.toBe(old)
    expect(await openWs(`ws://127.0.0.1:${s.host.port}/ws?token=${old}`)).toEqual({ refused: 401 })
    await connected(s)
    expect(JSON.parse(readFileSync(s.core.paths.hostFile, 'utf8'))).toMatchObject({ token: s.token })
    expect(readFileSync(tokenFile(s.core.paths.home), 'utf8')).toBe(`${s.token}\n`)
  })

  it('answers a page load with an old token with a page that says where the current address is, in the reader’s language', async () => {
    const s = await start()
    const page = (language: string) =>
      httpGet(s.host.port, '/?token=an-old-token-0123456789', { accept: 'text/html', 'accept-language': language })
    const ja = await page('ja,en-US;q=0.8')
    expect(ja.status).toBe(401)
    expect(ja.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(ja.headers['content-security-policy']).toContain("default-src 'none'")
    expect(ja.body).toContain('この Loomverse のアドレスは古くなっています')
    expect(ja.body).toContain('npx loomverse token')
    const en = await page('fr-FR, en;q=0.5, ja;q=0.4')
    expect(en.body).toContain('This Loomverse address is out of date')
    expect(en.body).toContain('Loomverse is running at')
    for (const answer of [ja, en]) {
      expect(answer.body).not.toContain(s.token)
      expect(answer.body).not.toContain(s.core.paths.home)
      expect(answer.body).not.toContain('<script')
    }
    // Scripts and assets still get the short answer.
    const script = await httpGet(s.host.port, '/?token=an-old-token-0123456789')
    expect(script).toMatchObject({ status: 401, body: 'bad token\n' })
  })
})
