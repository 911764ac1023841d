import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

/**
 * Which MCP servers' tools replies may use: for a persona (every enabled server unless narrowed),
 * or for one conversation (the persona's choice unless overridden). Saved as it is ticked.
 */
export function McpAccess({ personaId, flowId }: { personaId: string; flowId?: string }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const servers = useApp((s) => s.mcpServers?.servers)
  const load = useApp((s) => s.loadMcpServers)
  // undefined while loading; null: follows the default (every server, or the persona's choice)
  const [chosen, setChosen] = useState<string[] | null | undefined>(undefined)

  const loaded = servers !== undefined
  useEffect(() => {
    if (!loaded) void load()
  }, [load, loaded])
  useEffect(() => {
    void invoke('mcp_get_access', { persona_id: personaId, ...(flowId ? { flow_id: flowId } : {}) }).then((a) => {
      if (a) setChosen(flowId ? a.flow_servers : a.persona_servers)
    })
  }, [invoke, personaId, flowId])

  if (!servers || servers.length === 0 || chosen === undefined) return null
  const set = (next: string[] | null) => {
    setChosen(next)
    void invoke('mcp_set_access', { persona_id: personaId, ...(flowId ? { flow_id: flowId } : {}), servers: next })
  }
  const names = servers.map((s) => s.name)
  return (
    <fieldset className="mcp-access">
      <legend>{flowId ? t('mcp.access.conversation') : t('mcp.access.persona')}</legend>
      <label className="inline">
        <input type="checkbox" checked={chosen === null} onChange={(e) => set(e.target.checked ? null : names)} />
        {flowId ? t('mcp.access.followPersona') : t('mcp.access.all')}
      </label>
      {chosen !== null &&
        names.map((name) => (
          <label key={name} className="inline">
            <input
              type="checkbox"
              checked={chosen.includes(name)}
              onChange={(e) => set(e.target.checked ? [...chosen, name] : chosen.filter((n) => n !== name))}
            />
            <code>{name}</code>
          </label>
        ))}
    </fieldset>
  )
}
