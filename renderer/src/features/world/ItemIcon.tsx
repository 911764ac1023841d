import type { ReactNode } from 'react'
import type { ItemType } from '@shared/contract'

// Drawn, not emoji: an emoji depends on the system's fonts and shows as a box without them.
const paths: Record<ItemType | 'trash', ReactNode> = {
  object: <path d="M8 1.5 14.5 8 8 14.5 1.5 8z" fill="currentColor" />,
  picture: (
    <>
      <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
      <path d="M3 12l3.5-4 2.5 3 1.5-1.5L13 12z" fill="currentColor" />
      <circle cx="11" cy="5.5" r="1.2" fill="currentColor" />
    </>
  ),
  document: (
    <>
      <path d="M3.5 1.5h6l3 3v10h-9z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
      <path d="M5.5 7h5M5.5 9.5h5M5.5 12h3" stroke="currentColor" strokeWidth="1.2" />
    </>
  ),
  trash: (
    <path
      d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 9h5.6l.7-9"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinejoin="round"
    />
  ),
}

export function Glyph({ name }: { name: ItemType | 'trash' }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      {paths[name]}
    </svg>
  )
}

export function ItemIcon({ type, label }: { type: ItemType; label: string }) {
  return (
    <span className={`item-icon item-icon-${type}`} role="img" aria-label={label}>
      <Glyph name={type} />
    </span>
  )
}
