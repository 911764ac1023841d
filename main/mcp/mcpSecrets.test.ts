import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BackupResult, McpServerList } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'
import { approvedTurn, calls, testServers, withServer, userConfirms } from '../../tests/support/mcp/mcpTurns'
import { useTempHome } from '../../tests/support/tempHome'
import { plainSecretFile, sealedSecretFile, type Sealer } from '../kernel/secretFile'
import { commandLine, type CommandRequest } from './mcpCommands'
import { McpSecrets } from './mcpSecrets'

// The keys in a server's env and headers never reach mcp.json, a backup or an export; the
// server is still started with them. Browser mode keeps them in an owner-only file beside
// mcp.json; the desktop app seals them with the OS keychain.

const KEY = 'sk-live-0123456789abcdefWXYZ'
const setup = useLlmCore({
  memoryWorker: null,
  mcpCommands: userConfirms,
  mcpTimeouts: { startMs: 20_000, callMs: 4_000, backoffMs: 50 },
})
const withKey = { ...testServers.unruly, env: { API_KEY: KEY, FROM_APP: '${env:APP_VALUE}' } }

const folders: string[] = []
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true })
})

/** Every file under a folder, read as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'))
    .join('\n')
}

describe('MCP secrets', () => {
  it('a saved key is not in mcp.json, a backup or an export, and the server still gets it in its env', async () => {
    const { h, flowId } = await withServer(setup, 'unruly', { env: { APP_VALUE: 'from-the-app' } }, withKey)
    const home = h.core.paths.home
    const file = readFileSync(join(home, 'mcp.json'), 'utf8')
    expect(file).not.toContain(KEY)
    expect(JSON.parse(file).mcpServers.unruly.env).toEqual({
      API_KEY: '${secret:unruly/API_KEY}',
      FROM_APP: '${env:APP_VALUE}',
    })
    // Browser mode: no keychain, so an owner-only file the UI names as unencrypted.
    const secrets = join(home, 'mcp-secrets.json')
    expect(statSync(secrets).mode & 0o777).toBe(0o600)
    const list = await h.call<McpServerList>('mcp_list_servers', {})
    expect(list.secrets_encrypted).toBe(false)
    expect(JSON.stringify(list)).not.toContain(KEY)

    const turn = await approvedTurn(h, flowId, 'unruly__env', { name: 'API_KEY' })
    expect(turn.status.state).toBe('done')
    await approvedTurn(h, flowId, 'unruly__env', { name: 'FROM_APP' })
    expect((await calls(h, flowId)).map((c) => c.content)).toEqual([
      [{ type: 'text', text: `API_KEY is set: ${KEY.length} characters ending WXYZ` }],
      [{ type: 'text', text: 'FROM_APP is set: 12 characters ending -app' }],
    ])
    expect((await h.call<{ lines: string[] }>('mcp_server_log', { name: 'unruly' })).lines.join('\n')).not.toContain(
      KEY,
    )

    const backupFolder = mkdtempSync(join(tmpdir(), 'loomverse-backup-'))
    folders.push(backupFolder)
    const backup = await h.call<BackupResult>('backup_run', { folder: backupFolder })
    expect(backup.ok).toBe(true)
    const backedUp = allText(backup.path!)
    expect(backedUp).toContain('${secret:unruly/API_KEY}') // mcp.json is backed up, its keys are not
    expect(backedUp).not.toContain(KEY)

    const exported = await h.call<{ out_dir: string }>('vizprompt_export', { flow_id: flowId })
    expect(allText(exported.out_dir)).not.toContain(KEY)
    const markdown = await h.call<{ markdown: string }>('export_markdown', { flow_id: flowId })
    expect(markdown.markdown).not.toContain(KEY)
  }, 60_000)

  it('a key given to a command as an argument is kept like one in env: mcp.json, the confirmation and the log show its reference, the program gets the key', async () => {
    const asked: string[] = []
    const confirmer = {
      asksOnStart: true,
      confirm: (r: CommandRequest) => (asked.push(commandLine(r)), Promise.resolve(true)),
    }
    const config = {
      ...testServers.unruly,
      args: [...testServers.unruly.args, '--api-key', KEY, '--db=${env:DB_NAME}'],
    }
    const { h, flowId } = await withServer(
      setup,
      'unruly',
      { mcpCommands: confirmer, env: { DB_NAME: 'pets' } },
      config,
    )
    const file = JSON.parse(readFileSync(join(h.core.paths.home, 'mcp.json'), 'utf8'))
    expect(file.mcpServers.unruly.args.slice(-3)).toEqual([
      '--api-key',
      '${secret:unruly/--api-key}',
      '--db=${env:DB_NAME}',
    ])

    await approvedTurn(h, flowId, 'unruly__argv', {})
    expect((await calls(h, flowId))[0]!.content).toEqual([
      { type: 'text', text: `--api-key | ${KEY.length} characters ending WXYZ | --db=pets` },
    ])
    expect(asked.join('\n')).toContain('${secret:unruly/--api-key}')
    expect(asked.join('\n')).not.toContain(KEY)
    const log = (await h.call<{ lines: string[] }>('mcp_server_log', { name: 'unruly' })).lines.join('\n')
    expect(log).toContain('command confirmed')
    expect(log).not.toContain(KEY)
    expect(JSON.stringify(await h.call<McpServerList>('mcp_list_servers', {}))).not.toContain(KEY)
  }, 60_000)

  it("another app's file brings its keys into the secret file; so does a key typed into mcp.json by hand", async () => {
    const h = await setup()
    const home = h.core.paths.home
    const theirs = { mcpServers: { gh: { ...testServers.unruly, env: { GITHUB_TOKEN: 'ghp_imported_1234' } } } }
    const imported = await h.call<{ added: string[] }>('mcp_import', { text: JSON.stringify(theirs) })
    expect(imported.added).toEqual(['gh'])
    expect(readFileSync(join(home, 'mcp.json'), 'utf8')).not.toContain('ghp_imported')
    expect(readFileSync(join(home, 'mcp-secrets.json'), 'utf8')).toContain('ghp_imported_1234')

    const byHand = JSON.parse(readFileSync(join(home, 'mcp.json'), 'utf8'))
    byHand.mcpServers.web = { url: 'https://example.org/mcp', headers: { Authorization: 'Bearer typed-by-hand' } }
    writeFileSync(join(home, 'mcp.json'), JSON.stringify(byHand))
    const list = await h.call<McpServerList>('mcp_list_servers', {})
    expect(list.servers.find((s) => s.name === 'web')!.config).toMatchObject({
      headers: { Authorization: '${secret:web/Authorization}' },
    })
    expect(readFileSync(join(home, 'mcp.json'), 'utf8')).not.toContain('typed-by-hand')

    // Removed with its server: nothing refers to it any more.
    await h.call('mcp_remove_server', { name: 'gh' })
    expect(readFileSync(join(home, 'mcp-secrets.json'), 'utf8')).not.toContain('ghp_imported')
  }, 30_000)

  it("a Streamable HTTP server's headers are sent, not written; a key this machine lacks fails with a way out", async () => {
    const seen: IncomingHttpHeaders[] = []
    const http = createServer((req, res) => {
      seen.push(req.headers)
      res.writeHead(401).end()
    })
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
    try {
      const h = await setup()
      const port = (http.address() as { port: number }).port
      const config = { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: `Bearer ${KEY}` } }
      await h.call('mcp_save_server', { name: 'web', config })
      await h.call('mcp_test_server', { name: 'web' })
      expect(seen[0]!.authorization).toBe(`Bearer ${KEY}`)
      expect(readFileSync(join(h.core.paths.home, 'mcp.json'), 'utf8')).not.toContain(KEY)

      // mcp.json copied to a machine without its keys: the server says what to do.
      rmSync(join(h.core.paths.home, 'mcp-secrets.json'))
      const other = await setup()
      writeFileSync(join(other.core.paths.home, 'mcp.json'), readFileSync(join(h.core.paths.home, 'mcp.json'), 'utf8'))
      const tested = await other.call<{ status: string; error: string }>('mcp_test_server', { name: 'web' })
      expect(tested).toMatchObject({ status: 'failed' })
      expect(tested.error).toMatch(
        /headers.Authorization is not stored on this machine .* edit "web" and type it again/,
      )
    } finally {
      http.close()
    }
  }, 30_000)
})

describe('McpSecrets', () => {
  const dir = useTempHome()
  /** A stand-in for Electron's safeStorage: reversible, and visibly not plain text. */
  const sealer: Sealer = {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (plain) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
    decryptString: (sealed) => Buffer.from(sealed.map((b) => b ^ 0x5a)).toString('utf8'),
  }

  it('sealed by the keychain in the desktop app: the file holds no key in plain text', () => {
    const path = join(dir(), 'mcp-secrets.sealed')
    const secrets = new McpSecrets(sealedSecretFile(path, sealer, 'linux'))
    expect(secrets.encrypted).toBe(true)
    const sealed = secrets.seal('a', { command: 'x', env: { TOKEN: KEY } })
    expect(sealed).toEqual({ command: 'x', env: { TOKEN: '${secret:a/TOKEN}' } })
    expect(readFileSync(path).toString('latin1')).not.toContain(KEY)
    const again = new McpSecrets(sealedSecretFile(path, sealer, 'linux'))
    expect(again.resolve('a', sealed)).toEqual({ command: 'x', env: { TOKEN: KEY } })
  })

  it('finds keys in args by their flag or in a URL, leaves other arguments alone, and resolves them back', () => {
    const secrets = new McpSecrets(plainSecretFile(join(dir(), 'mcp-secrets.json')), { HOME_DB: 'notes' })
    const args = [
      '--access-token',
      KEY,
      '--client-secret=abc123',
      'postgresql://me:hunter2@localhost:5432/${env:HOME_DB}',
      '--max-tokens',
      '500',
      '--key-file',
      '/home/me/key.pem',
      '--verbose',
    ]
    const sealed = secrets.seal('db', { command: 'x', args })
    expect(sealed).toEqual({
      command: 'x',
      args: [
        '--access-token',
        '${secret:db/--access-token}',
        '--client-secret=${secret:db/--client-secret}',
        'postgresql://me:${secret:db/password:me@localhost:5432}@localhost:5432/${env:HOME_DB}',
        '--max-tokens',
        '500',
        '--key-file',
        '/home/me/key.pem',
        '--verbose',
      ],
    })
    expect(secrets.hasPlain(sealed)).toBe(false)
    expect(secrets.hasPlain({ command: 'x', args: ['--token', 't'] })).toBe(true)
    expect(secrets.hasPlain({ command: 'x', args: ['--max-tokens', '500'] })).toBe(false)
    expect(secrets.resolve('db', sealed)).toEqual({
      command: 'x',
      args: [...args.slice(0, 3), 'postgresql://me:hunter2@localhost:5432/notes', ...args.slice(4)],
    })
    // Renamed, the keys go along; the old names are forgotten once nothing refers to them.
    const renamed = secrets.seal('pg', sealed)
    secrets.prune([renamed])
    expect((renamed as { args: string[] }).args[1]).toBe('${secret:pg/--access-token}')
    expect((secrets.resolve('pg', renamed) as { args: string[] }).args[3]).toBe(
      'postgresql://me:hunter2@localhost:5432/notes',
    )
    expect(() => secrets.resolve('db', sealed)).toThrow(/args\[1\] is not stored on this machine/)
  })

  it('a renamed server takes its keys along; a reference shown back keeps its value', () => {
    const secrets = new McpSecrets(plainSecretFile(join(dir(), 'mcp-secrets.json')))
    const first = secrets.seal('old', { command: 'x', env: { TOKEN: KEY } })
    const renamed = secrets.seal('new', first)
    expect(renamed).toEqual({ command: 'x', env: { TOKEN: '${secret:new/TOKEN}' } })
    secrets.prune([renamed])
    expect(secrets.resolve('new', renamed)).toEqual({ command: 'x', env: { TOKEN: KEY } })
    expect(() => secrets.resolve('old', first)).toThrow(/not stored on this machine/)
  })
})
