import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { McpServerConfig, McpServerName, type McpServerInfo } from '@shared/contract'
import { useApp } from '../../store'
import { Button } from '../../ui/Button'
import { Dialog } from '../../ui/Dialog'
import { Field } from '../../ui/Field'
import { AlwaysAllowed } from './AlwaysAllowed'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

const EXAMPLE =
  '{\n  "command": "npx",\n  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/path/to/folder"]\n}'

/**
 * Settings → Tools: the MCP servers of mcp.json (the format of Claude Desktop, Cursor and LM
 * Studio), their status and tools; add, edit, enable, test, read their logs, or take the servers
 * of another app's file. Opening it starts the enabled servers so their tools can be seen.
 */
export function ToolsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const list = useApp((s) => s.mcpServers)
  const load = useApp((s) => s.loadMcpServers)
  const invoke = useApp((s) => s.invoke)
  const [editing, setEditing] = useState<{ previous?: string; name: string; config: string } | null>(null)
  const [formError, setFormError] = useState<string | null>(null)
  const [log, setLog] = useState<{ name: string; lines: string[] } | null>(null)
  const [importText, setImportText] = useState('')
  const [imported, setImported] = useState<string | null>(null)

  useEffect(() => {
    void load(true)
  }, [load])

  const save = async () => {
    if (!editing) return
    const name = McpServerName.safeParse(editing.name)
    if (!name.success) return setFormError(t('mcp.badName', { reason: name.error.issues[0]!.message }))
    let config: unknown
    try {
      config = JSON.parse(editing.config)
    } catch (e) {
      return setFormError(t('mcp.badJson', { reason: (e as Error).message }))
    }
    const parsed = McpServerConfig.safeParse(config)
    if (!parsed.success) return setFormError(t('mcp.badConfig'))
    const saved = await invoke('mcp_save_server', {
      name: name.data,
      config: parsed.data,
      ...(editing.previous ? { previous_name: editing.previous } : {}),
    })
    if (!saved) return
    setEditing(null)
    setFormError(null)
    const tested = await invoke('mcp_test_server', { name: name.data })
    if (tested) void load()
  }
  const act = async (run: () => Promise<unknown>) => {
    await run()
    await load()
  }
  const showLog = async (name: string) => {
    const got = await invoke('mcp_server_log', { name })
    if (got) setLog({ name, lines: got.lines })
  }
  const doImport = async (text: string) => {
    const r = await invoke('mcp_import', { text })
    if (!r) return
    setImported(t('mcp.imported', { added: r.added.join(', ') || '—', skipped: r.skipped.join(', ') || '—' }))
    setImportText('')
    void load(true)
  }

  const servers = list?.servers ?? []
  return (
    <Dialog title={t('mcp.title')} onClose={onClose} size="lg" className="tools-dialog">
      <p className="hint">{t('mcp.intro')}</p>
      {list && (
        <p className="hint" data-testid="mcp-secrets-note">
          {t(list.secrets_encrypted ? 'mcp.secretsKeychain' : 'mcp.secretsPlain')}
        </p>
      )}
      {list?.file_error && (
        <p role="alert" className="mcp-file-error">
          {t('mcp.fileError', { error: list.file_error })}
        </p>
      )}
      {servers.length === 0 ? (
        <p>{t('mcp.none')}</p>
      ) : (
        <ul className="mcp-servers" aria-label={t('mcp.listLabel')}>
          {servers.map((s) => (
            <ServerRow
              key={s.name}
              server={s}
              onEdit={() => {
                const { disabled: _, ...config } = s.config
                setEditing({ previous: s.name, name: s.name, config: JSON.stringify(config, null, 2) })
              }}
              onToggle={() =>
                void act(() => invoke('mcp_set_enabled', { name: s.name, enabled: s.status === 'disabled' }))
              }
              onTest={() => void act(() => invoke('mcp_test_server', { name: s.name }))}
              onRun={() => void act(() => invoke('mcp_confirm_command', { name: s.name }))}
              onLog={() => void showLog(s.name)}
              onRemove={() => void act(() => invoke('mcp_remove_server', { name: s.name }))}
            />
          ))}
        </ul>
      )}
      {log && (
        <section className="mcp-log" aria-label={t('mcp.logOf', { name: log.name })}>
          <div className="mcp-log-head">
            <strong>{t('mcp.logOf', { name: log.name })}</strong>
            <Button size="sm" variant="ghost" onClick={() => setLog(null)}>
              {t('mcp.closeLog')}
            </Button>
          </div>
          <pre data-testid="mcp-log">{log.lines.join('\n') || t('mcp.emptyLog')}</pre>
        </section>
      )}
      {editing ? (
        <form
          className="mcp-form"
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <Field label={t('mcp.name')} hint={t('mcp.nameHint')}>
            <input value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} />
          </Field>
          <Field label={t('mcp.config')} hint={t('mcp.configHint')} error={formError ?? undefined}>
            <textarea
              rows={7}
              spellCheck={false}
              value={editing.config}
              onChange={(e) => setEditing({ ...editing, config: e.target.value })}
            />
          </Field>
          <div className="dialog-actions">
            <Button
              onClick={() => {
                setEditing(null)
                setFormError(null)
              }}
            >
              {t('mcp.cancel')}
            </Button>
            <Button type="submit" variant="primary" disabled={!editing.name.trim()}>
              {t('mcp.save')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="mcp-add">
          <Button variant="primary" onClick={() => setEditing({ name: '', config: EXAMPLE })}>
            {t('mcp.add')}
          </Button>
        </div>
      )}
      <AlwaysAllowed />
      <details className="mcp-import">
        <summary>{t('mcp.importTitle')}</summary>
        <p className="hint">{t('mcp.importHint')}</p>
        <Field label={t('mcp.importFile')}>
          <input
            type="file"
            accept=".json,application/json"
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) void file.text().then(doImport)
              e.target.value = ''
            }}
          />
        </Field>
        <Field label={t('mcp.importPaste')}>
          <textarea rows={4} spellCheck={false} value={importText} onChange={(e) => setImportText(e.target.value)} />
        </Field>
        <Button disabled={!importText.trim()} onClick={() => void doImport(importText)}>
          {t('mcp.import')}
        </Button>
        {imported && <p role="status">{imported}</p>}
      </details>
      <DialogCloseRow onClose={onClose} />
    </Dialog>
  )
}

function ServerRow(props: {
  server: McpServerInfo
  onEdit: () => void
  onToggle: () => void
  onTest: () => void
  onRun: () => void
  onLog: () => void
  onRemove: () => void
}) {
  const { t } = useTranslation()
  const s = props.server
  const target =
    'url' in s.config ? String(s.config.url) : [s.config.command, ...((s.config.args as string[]) ?? [])].join(' ')
  return (
    <li className="mcp-server" data-testid="mcp-server" aria-label={s.name}>
      <div className="mcp-server-head">
        <strong>{s.name}</strong>
        <span className={`badge mcp-status-${s.status}`} data-testid="mcp-status">
          {t(`mcp.status.${s.status}`)}
        </span>
        <code className="mcp-target" title={target}>
          {target}
        </code>
      </div>
      {s.status === 'unconfirmed' && !s.error?.includes('--no-mcp-commands') ? (
        <p className="mcp-server-error mcp-server-waiting">{t('mcp.unconfirmedNote')}</p>
      ) : (
        s.error && <p className="mcp-server-error">{s.error}</p>
      )}
      {s.tools.length > 0 && (
        <details>
          <summary>{t('mcp.tools', { count: s.tools.length })}</summary>
          <ul className="mcp-tools">
            {s.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code> {tool.description}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="mcp-server-actions">
        {s.status === 'unconfirmed' && (
          <Button size="sm" variant="primary" onClick={props.onRun} title={t('mcp.runHint')}>
            {t('mcp.run')}
          </Button>
        )}
        <Button size="sm" onClick={props.onTest} disabled={s.status === 'disabled'}>
          {t('mcp.test')}
        </Button>
        <Button size="sm" onClick={props.onToggle}>
          {s.status === 'disabled' ? t('mcp.enable') : t('mcp.disable')}
        </Button>
        <Button size="sm" onClick={props.onEdit}>
          {t('mcp.edit')}
        </Button>
        <Button size="sm" onClick={props.onLog}>
          {t('mcp.log')}
        </Button>
        <Button size="sm" variant="danger" onClick={props.onRemove}>
          {t('mcp.remove')}
        </Button>
      </div>
    </li>
  )
}
