import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpContent, McpToolCall } from '@shared/contract'
import { useApp } from '../../store'
import { Button } from '../../ui/Button'

/** Characters of a result shown before "show all"; the node keeps more. */
const SHOWN = 2000

/**
 * The MCP tools a reply called: each asks first (allow once, always for this persona, deny)
 * with its arguments shown, then shows what it answered or why it failed.
 */
export const McpToolCalls = memo(function McpToolCalls({ nodeId }: { nodeId: string }) {
  const calls = useApp((s) => s.mcpCalls[nodeId])
  if (!calls || calls.length === 0) return null
  return (
    <ol className="mcp-calls" data-testid="mcp-calls">
      {calls.map((call) => (
        <McpCall key={call.id} call={call} />
      ))}
    </ol>
  )
})

function McpCall({ call }: { call: McpToolCall }) {
  const { t } = useTranslation()
  const answer = useApp((s) => s.answerMcpCall)
  return (
    <li className={`mcp-call mcp-call-${call.state}`} data-testid="mcp-call">
      <div className="mcp-call-head">
        <code>
          {call.server} › {call.tool}
        </code>
        <span className={`badge mcp-state-${call.state}`}>{t(`mcp.state.${call.state}`)}</span>
      </div>
      <details open={call.state === 'waiting'}>
        <summary>{t('mcp.arguments')}</summary>
        <pre>{pretty(call.arguments)}</pre>
      </details>
      {call.state === 'waiting' && (
        <div className="mcp-approve" role="group" aria-label={t('mcp.approveLabel', { tool: call.tool })}>
          <Button variant="primary" size="sm" onClick={() => void answer(call.id, 'once')}>
            {t('mcp.allowOnce')}
          </Button>
          <Button size="sm" onClick={() => void answer(call.id, 'always')}>
            {t('mcp.allowAlways')}
          </Button>
          <Button variant="danger" size="sm" onClick={() => void answer(call.id, 'deny')}>
            {t('mcp.deny')}
          </Button>
        </div>
      )}
      {call.content.length > 0 && (
        <div className="mcp-result" data-testid="mcp-result">
          {call.content.map((c, i) => (
            <ResultPart key={i} part={c} />
          ))}
        </div>
      )}
      {call.note && <p className="mcp-note">{call.note}</p>}
    </li>
  )
}

function ResultPart({ part }: { part: McpContent }) {
  const { t } = useTranslation()
  switch (part.type) {
    case 'text':
      return part.text.length > SHOWN ? (
        <details>
          <summary>
            <pre>{part.text.slice(0, SHOWN)}…</pre>
            {t('mcp.showAll', { count: part.text.length })}
          </summary>
          <pre>{part.text}</pre>
        </details>
      ) : (
        <pre>{part.text}</pre>
      )
    case 'image':
      return <img className="mcp-image" alt={t('mcp.picture')} src={`data:${part.mime};base64,${part.data_base64}`} />
    case 'resource_link':
      return (
        <p className="mcp-link">
          {t('mcp.resource')}: <code>{part.name ? `${part.name} — ${part.uri}` : part.uri}</code>
        </p>
      )
    case 'structured':
      return (
        <details>
          <summary>{t('mcp.structured')}</summary>
          <pre>{pretty(part.json)}</pre>
        </details>
      )
  }
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2)
  } catch {
    return json
  }
}
