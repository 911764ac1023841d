import { Paperclip } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { formatBytes } from '../../ui/formatBytes'

/**
 * MCP resources going out with the next message, each removable, and Attach → from an MCP
 * server (shown once a server is set up).
 */
export function AttachedResources() {
  const { t } = useTranslation()
  const resources = useApp((s) => s.attachedResources)
  const detach = useApp((s) => s.detachResource)
  const hasServers = useApp((s) => (s.mcpServers?.servers.length ?? 0) > 0)
  const loaded = useApp((s) => s.mcpServers !== null)
  const load = useApp((s) => s.loadMcpServers)
  const openModal = useApp((s) => s.openModal)
  useEffect(() => {
    if (!loaded) void load() // the list only: no server is started for it
  }, [loaded, load])
  if (!hasServers && resources.length === 0) return null
  return (
    <div className="attached-resources">
      {resources.length > 0 && (
        <ul aria-label={t('mcp.resources.attached')}>
          {resources.map((r) => (
            <li key={r.uri} data-testid="attached-resource" title={r.uri}>
              <Paperclip size={12} aria-hidden /> {r.name}
              {r.files.map((f) => (
                <span key={f.uri} className="attached-file" title={t('mcp.resources.fileHint', { uri: f.uri })}>
                  {t('mcp.resources.file', { mime: f.mime, size: formatBytes(f.bytes) })}
                </span>
              ))}
              <button
                type="button"
                className="link"
                aria-label={t('mcp.resources.detach', { name: r.name })}
                onClick={() => detach(r.uri)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {hasServers && (
        <button type="button" className="link" onClick={() => openModal({ name: 'mcp_resources' })}>
          {t('mcp.resources.open')}
        </button>
      )}
    </div>
  )
}
