import type { ItemType } from '@shared/contract'

const icons: Record<ItemType, string> = { object: '◆', picture: '🖼', document: '📄' }

export function ItemIcon({ type, label }: { type: ItemType; label: string }) {
  return (
    <span className={`item-icon item-icon-${type}`} role="img" aria-label={label}>
      {icons[type]}
    </span>
  )
}
