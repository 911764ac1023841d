import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import './ui.css'

export interface TabItem<T extends string> {
  id: T
  label: ReactNode
}

/**
 * A tab list (WAI-ARIA tabs, automatic activation): arrows, Home and End move between tabs
 * and select them. The caller renders the chosen panel inside <TabPanel>.
 */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  idBase,
}: {
  tabs: TabItem<T>[]
  value: T
  onChange: (id: T) => void
  /** The tab list's accessible name. */
  label: string
  /** Ties tabs to their panel ids (`${idBase}-panel-${id}`); made up when absent. */
  idBase?: string
}) {
  const made = useId()
  const base = idBase ?? made
  const list = useRef<HTMLDivElement>(null)
  const onKey = (e: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === value)
    const next =
      e.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1
    if (next < 0) return
    e.preventDefault()
    onChange(tabs[next]!.id)
    list.current?.querySelectorAll<HTMLElement>('[role=tab]')[next]?.focus()
  }
  return (
    <div className="ui-tabs" role="tablist" aria-label={label} ref={list} onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`${base}-tab-${t.id}`}
          aria-selected={t.id === value}
          aria-controls={`${base}-panel-${t.id}`}
          tabIndex={t.id === value ? 0 : -1}
          className="ui-tab"
          onClick={() => onChange(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  )
}

export function TabPanel({ idBase, id, children }: { idBase: string; id: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`${idBase}-panel-${id}`} aria-labelledby={`${idBase}-tab-${id}`} className="ui-tabpanel">
      {children}
    </div>
  )
}
