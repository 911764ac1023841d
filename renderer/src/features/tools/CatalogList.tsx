import { useTranslation } from 'react-i18next'
import { Button } from '../../ui/Button'

interface Item {
  server: string
  name: string
  description?: string
}

/**
 * What running MCP servers offer (resources, prompts), each with its server and one action;
 * while loading, a line saying so; when there is nothing, `none`.
 */
export function CatalogList<T extends Item>(props: {
  items: T[] | null
  label: string
  none: string
  action: string
  actionLabel?: (item: T) => string
  onAction: (item: T) => void
  testId?: string
}) {
  const { t } = useTranslation()
  if (props.items === null) return <p>{t('mcp.resources.loading')}</p>
  if (props.items.length === 0) return <p>{props.none}</p>
  return (
    <ul className="mcp-catalog-list" aria-label={props.label}>
      {props.items.map((item) => (
        <li key={`${item.server} ${item.name}`} data-testid={props.testId}>
          <div>
            <strong>{item.name}</strong> <span className="badge">{item.server}</span>
            {item.description && <p className="hint">{item.description}</p>}
          </div>
          <Button size="sm" onClick={() => props.onAction(item)} aria-label={props.actionLabel?.(item)}>
            {props.action}
          </Button>
        </li>
      ))}
    </ul>
  )
}
