import { Box, FileText, Image, Trash2, type LucideIcon } from 'lucide-react'
import type { ItemType } from '@shared/contract'

// The app's one icon set (lucide), never emoji: an emoji depends on the system's fonts.
const icons: Record<ItemType | 'trash', LucideIcon> = { object: Box, picture: Image, document: FileText, trash: Trash2 }

export function Glyph({ name }: { name: ItemType | 'trash' }) {
  const Icon = icons[name]
  return <Icon size={14} aria-hidden="true" focusable="false" />
}

export function ItemIcon({ type, label }: { type: ItemType; label: string }) {
  return (
    <span className={`item-icon item-icon-${type}`} role="img" aria-label={label}>
      <Glyph name={type} />
    </span>
  )
}
