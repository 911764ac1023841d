import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../store'

/** The tools a reply called and what they answered, shown on its node card. */
export const NodeToolCalls = memo(function NodeToolCalls({ nodeId }: { nodeId: string }) {
  const { t } = useTranslation()
  const calls = useApp((s) => s.toolCalls[nodeId])
  if (!calls || calls.length === 0) return null
  return (
    <details className="node-tool-calls nodrag" data-testid="node-tool-calls">
      <summary>{t('world.toolCalls', { count: calls.length })}</summary>
      <ol>
        {calls.map((call) => (
          <li key={call.seq} className={call.is_error ? 'tool-call-error' : undefined}>
            <code>{call.name}</code>
            <pre>{call.arguments}</pre>
            <pre>{call.result.length > 600 ? `${call.result.slice(0, 600)}…` : call.result}</pre>
          </li>
        ))}
      </ol>
    </details>
  )
})
