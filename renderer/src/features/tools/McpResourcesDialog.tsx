import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpResourceInfo } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'
import { CatalogList } from './CatalogList'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

/** Attach → from an MCP server: the servers' resources; one chosen goes out with the next message. */
export function McpResourcesDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const attach = useApp((s) => s.attachResource)
  const uploadPicture = useApp((s) => s.uploadPicture)
  const [resources, setResources] = useState<McpResourceInfo[] | null>(null)
  const [note, setNote] = useState<string | null>(null)

  useEffect(() => {
    void invoke('mcp_list_resources', { start: true }).then((r) => setResources(r ?? []))
  }, [invoke])

  const choose = async (r: McpResourceInfo) => {
    const read = await invoke('mcp_read_resource', { server: r.server, uri: r.uri })
    if (!read) return // refused (too big, unreadable): the toast says why
    // Its pictures go as a picture dropped on the window does: kept in the building, sent with the message.
    for (const [i, image] of read.images.entries())
      await uploadPicture({
        name: read.images.length > 1 ? `${r.name} (${i + 1})` : r.name,
        data_base64: image.data_base64,
      })
    if (read.text || read.files.length > 0)
      attach({ server: r.server, uri: r.uri, name: r.name, text: read.text, files: read.files })
    if (read.note) setNote(read.note)
    else onClose()
  }

  return (
    <Dialog title={t('mcp.resources.title')} onClose={onClose} size="lg" className="mcp-catalog">
      <p className="hint">{t('mcp.resources.hint')}</p>
      {note && <p role="status">{t('mcp.resources.cut', { note })}</p>}
      <CatalogList
        items={resources}
        label={t('mcp.resources.title')}
        none={t('mcp.resources.none')}
        action={t('mcp.resources.attach')}
        actionLabel={(r) => t('mcp.resources.attachOne', { name: r.name })}
        onAction={(r) => void choose(r)}
        testId="mcp-resource"
      />
      <DialogCloseRow onClose={onClose} />
    </Dialog>
  )
}
