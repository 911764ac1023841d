import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import { ChevronDown } from 'lucide-react'
import './ui.css'

export interface MenuItem {
  id: string
  label: string
  icon?: LucideIcon
  /** Shown at the end of the row ("Ctrl+K"). */
  hint?: string
  danger?: boolean
  disabled?: boolean
  onSelect: () => void
}

/**
 * A button that opens a menu (WAI-ARIA menu button): Enter, Space or ArrowDown open it on the
 * first item, ArrowUp on the last; arrows, Home and End move; Enter runs; Escape and Tab close
 * it, and the focus returns to the button.
 */
export function Menu({
  label,
  icon: Icon,
  items,
  iconOnly,
  align = 'end',
  testId,
  size = 'md',
  className,
  children,
}: {
  label: string
  icon?: LucideIcon
  items: (MenuItem | 'separator')[]
  /** Draw only the icon (the label stays the accessible name and the tooltip). */
  iconOnly?: boolean
  align?: 'start' | 'end'
  testId?: string
  size?: 'sm' | 'md'
  /** More classes for the button (a transcript message's quiet icons). */
  className?: string
  children?: ReactNode
}) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false)
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const id = useId()
  const entries = () => [
    ...(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]:not([aria-disabled=true])') ?? []),
  ]

  useEffect(() => {
    if (!open) return
    const list = entries()
    ;(open === 'last' ? list.at(-1) : list[0])?.focus()
    const away = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', away)
    return () => document.removeEventListener('mousedown', away)
  }, [open])

  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) button.current?.focus()
  }
  const onMenuKey = (e: React.KeyboardEvent) => {
    const list = entries()
    const at = list.indexOf(document.activeElement as HTMLElement)
    const move = (to: number) => {
      e.preventDefault()
      list[(to + list.length) % list.length]?.focus()
    }
    if (e.key === 'ArrowDown') move(at + 1)
    else if (e.key === 'ArrowUp') move(at - 1)
    else if (e.key === 'Home') move(0)
    else if (e.key === 'End') move(list.length - 1)
    else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      close(true)
    } else if (e.key === 'Tab') close(false)
  }

  return (
    <div className="ui-menu-wrap">
      <button
        ref={button}
        type="button"
        className={`btn btn-ghost btn-${size}${iconOnly ? ' btn-icon-only' : ''}${className ? ` ${className}` : ''}`}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? id : undefined}
        aria-label={iconOnly ? label : undefined}
        data-tooltip={iconOnly && !open ? label : undefined}
        data-testid={testId}
        onClick={() => setOpen((o) => (o ? false : 'first'))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault()
            setOpen(e.key === 'ArrowUp' ? 'last' : 'first')
          }
        }}
      >
        {Icon && <Icon size={size === 'sm' ? 14 : 16} aria-hidden="true" />}
        {!iconOnly && <span className="btn-label">{children ?? label}</span>}
        {!iconOnly && <ChevronDown size={14} aria-hidden="true" className="btn-chevron" />}
      </button>
      {open && (
        <div
          ref={menu}
          id={id}
          role="menu"
          aria-label={label}
          className={`ui-menu ui-menu-${align}`}
          onKeyDown={onMenuKey}
        >
          {items.map((item, i) =>
            item === 'separator' ? (
              <div key={`sep-${i}`} role="separator" className="ui-menu-separator" />
            ) : (
              <button
                key={item.id}
                type="button"
                role="menuitem"
                tabIndex={-1}
                aria-disabled={item.disabled || undefined}
                className={`ui-menu-item${item.danger ? ' danger' : ''}`}
                onClick={() => {
                  if (item.disabled) return
                  close(true)
                  item.onSelect()
                }}
              >
                {item.icon ? <item.icon size={16} aria-hidden="true" /> : <span className="ui-menu-noicon" />}
                <span className="ui-menu-label">{item.label}</span>
                {item.hint && <kbd className="ui-kbd">{item.hint}</kbd>}
              </button>
            ),
          )}
        </div>
      )}
    </div>
  )
}
