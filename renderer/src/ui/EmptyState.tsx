import type { ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import './ui.css'

/** A designed empty place: an icon, what is missing, and the way forward. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  actions,
  testId,
}: {
  icon: LucideIcon
  title: string
  children?: ReactNode
  actions?: ReactNode
  testId?: string
}) {
  return (
    <div className="ui-empty" data-testid={testId}>
      <span className="ui-empty-icon" aria-hidden="true">
        <Icon size={24} />
      </span>
      <h2>{title}</h2>
      {children}
      {actions && <div className="ui-empty-actions">{actions}</div>}
    </div>
  )
}
