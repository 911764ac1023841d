import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Out } from '@shared/contract'
import { useApp } from '../../store'

/** The context inspector's line for MCP tools: what the next reply is offered, and the tokens their schemas take. */
export function OfferedTools({ flowId }: { flowId: string }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const servers = useApp((s) => s.mcpServers)
  const [offered, setOffered] = useState<Out<'mcp_offered_tools'> | null>(null)

  useEffect(() => {
    let current = true
    void invoke('mcp_offered_tools', { flow_id: flowId }).then((o) => current && setOffered(o))
    return () => {
      current = false
    }
  }, [invoke, flowId, servers])

  if (!offered || (offered.tools.length === 0 && offered.not_started.length === 0)) return null
  return (
    <details className="context-part part-tools" data-kind="tools" data-testid="context-mcp-tools">
      <summary className="context-part-head">
        <span>{t('mcp.offered', { count: offered.tools.length })}</span>
        <span className="tokens">{t('context.tokens', { count: offered.tokens })}</span>
      </summary>
      <ul>
        {offered.tools.map((tool) => (
          <li key={tool.name}>
            <code>{tool.name}</code> · {t('context.tokens', { count: tool.tokens })}
          </li>
        ))}
      </ul>
      {offered.not_started.length > 0 && (
        <p className="hint">{t('mcp.notStarted', { names: offered.not_started.join(', ') })}</p>
      )}
    </details>
  )
}
