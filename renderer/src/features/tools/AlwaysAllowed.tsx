import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpGrant } from '@shared/contract'
import { useApp } from '../../store'
import { Button } from '../../ui/Button'

/**
 * The tools each persona calls without asking (answered "Always allow for this persona"), each
 * with Revoke: from then on that tool asks first again.
 */
export function AlwaysAllowed() {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const personas = useApp((s) => s.personas)
  const [grants, setGrants] = useState<McpGrant[] | null>(null)

  useEffect(() => {
    void invoke('mcp_list_grants', {}).then((g) => g && setGrants(g))
  }, [invoke])

  if (!grants) return null
  const revoke = async (g: McpGrant) => {
    const done = await invoke('mcp_revoke_grant', { persona_id: g.persona_id, server: g.server, tool: g.tool })
    if (done) setGrants((list) => list?.filter((x) => x !== g) ?? null)
  }
  const byPersona = new Map<string, McpGrant[]>()
  for (const g of grants) byPersona.set(g.persona_id, [...(byPersona.get(g.persona_id) ?? []), g])
  const nameOf = (id: string) => personas.find((p) => p.id === id)?.name ?? t('mcp.grants.noPersona')
  return (
    <details className="mcp-grants" data-testid="mcp-grants">
      <summary>{t('mcp.grants.title', { count: grants.length })}</summary>
      <p className="hint">{t('mcp.grants.hint')}</p>
      {grants.length === 0 ? (
        <p>{t('mcp.grants.none')}</p>
      ) : (
        [...byPersona].map(([personaId, list]) => (
          <section key={personaId} aria-label={nameOf(personaId)}>
            <h4>{nameOf(personaId)}</h4>
            <ul>
              {list.map((g) => (
                <li key={`${g.server}__${g.tool}`} data-testid="mcp-grant">
                  <code>{`${g.server}__${g.tool}`}</code>
                  <Button
                    size="sm"
                    onClick={() => void revoke(g)}
                    aria-label={t('mcp.grants.revokeLabel', {
                      tool: `${g.server}__${g.tool}`,
                      persona: nameOf(personaId),
                    })}
                  >
                    {t('mcp.grants.revoke')}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </details>
  )
}
