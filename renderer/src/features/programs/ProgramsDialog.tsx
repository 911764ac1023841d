import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiToken } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

/**
 * Settings → Connected programs: a token per program that uses the local HTTP API. A new token
 * is shown once (only its hash is kept); revoking one refuses that program's next request. An
 * agent using the memory server at /api/mcp only reads unless its token was made to notify.
 */
export function ProgramsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [tokens, setTokens] = useState<ApiToken[]>([])
  const [name, setName] = useState('')
  const [mcpWrites, setMcpWrites] = useState(false)
  const [fresh, setFresh] = useState<{ name: string; token: string } | null>(null)

  const reload = useCallback(() => invoke('api_token_list', {}).then((list) => list && setTokens(list)), [invoke])
  useEffect(() => {
    void reload()
  }, [reload])

  const create = async () => {
    const made = await invoke('api_token_create', { name, mcp_writes: mcpWrites })
    if (!made) return
    setFresh({ name: made.name, token: made.token })
    setName('')
    setMcpWrites(false)
    await reload()
  }
  const revoke = async (id: string) => {
    if (await invoke('api_token_revoke', { id })) await reload()
  }
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : t('programs.never'))

  return (
    <Dialog title={t('programs.title')} onClose={onClose}>
      <p>{t('programs.intro')}</p>
      <form
        className="programs-new"
        onSubmit={(e) => {
          e.preventDefault()
          if (name.trim()) void create()
        }}
      >
        <label>
          {t('programs.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder={t('programs.namePlaceholder')} />
        </label>
        <button type="submit" className="primary" disabled={!name.trim()}>
          {t('programs.create')}
        </button>
        <label className="programs-writes">
          <input type="checkbox" checked={mcpWrites} onChange={(e) => setMcpWrites(e.target.checked)} />
          {t('programs.mcpWrites')}
        </label>
      </form>
      {fresh && (
        <div className="programs-fresh" role="status">
          <p>{t('programs.showOnce', { name: fresh.name })}</p>
          <code aria-label={t('programs.tokenLabel')}>{fresh.token}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(fresh.token)}>
            {t('programs.copy')}
          </button>
        </div>
      )}
      {tokens.length === 0 ? (
        <p>{t('programs.none')}</p>
      ) : (
        <table className="programs-list" aria-label={t('programs.listLabel')}>
          <thead>
            <tr>
              <th>{t('programs.name')}</th>
              <th>{t('programs.lastUsed')}</th>
              <th>{t('programs.calls')}</th>
              <th>{t('programs.mcp')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{when(token.last_used_at)}</td>
                <td>{token.calls}</td>
                <td>{token.mcp_writes ? t('programs.mcpReadWrite') : t('programs.mcpRead')}</td>
                <td>
                  {token.revoked ? (
                    t('programs.revoked')
                  ) : (
                    // The row names the program: the button says only what it does, its name for a screen reader.
                    <button
                      type="button"
                      aria-label={t('programs.revokeLabel', { name: token.name })}
                      onClick={() => void revoke(token.id)}
                    >
                      {t('programs.revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <DialogCloseRow onClose={onClose} />
    </Dialog>
  )
}
