import { useId, useMemo, useRef, useState } from 'react'
import { ChevronDown } from 'lucide-react'
import { fuzzyFilter } from './fuzzy'
import './ui.css'

export interface ComboOption {
  value: string
  /** What the list shows; the value when absent. */
  label?: string
  /** Options with the same group are listed together under it (e.g. a provider's models). */
  group?: string
}

/**
 * A text field with a searchable list (WAI-ARIA combobox with a listbox popup): typing filters
 * the options, ArrowDown/ArrowUp move, Enter picks, Escape closes the list (a second Escape is
 * the dialog's). With `freeText` a value the list does not hold can be typed and kept.
 */
export function Combobox({
  id,
  value,
  onChange,
  options,
  freeText = true,
  placeholder,
  emptyText,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  'aria-label': ariaLabel,
}: {
  id?: string
  value: string
  onChange: (value: string) => void
  options: ComboOption[]
  freeText?: boolean
  placeholder?: string
  /** Shown when nothing matches what is typed. */
  emptyText?: string
  'aria-describedby'?: string
  'aria-invalid'?: boolean
  'aria-label'?: string
}) {
  const listId = useId()
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const shown = useMemo(
    () => fuzzyFilter(options, query ?? '', (o) => `${o.group ?? ''} ${o.label ?? o.value}`),
    [options, query],
  )
  // Grouped in the order groups first appear among the matches.
  const groups = useMemo(() => {
    const out = new Map<string, ComboOption[]>()
    for (const o of shown) out.set(o.group ?? '', [...(out.get(o.group ?? '') ?? []), o])
    return [...out]
  }, [shown])
  const flat = groups.flatMap(([, list]) => list)
  const optionId = (i: number) => `${listId}-o${i}`

  const pick = (o: ComboOption) => {
    onChange(o.value)
    setQuery(null)
    setOpen(false)
  }
  const onKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      if (!open) {
        setOpen(true)
        setActive(0)
        return
      }
      const step = e.key === 'ArrowDown' ? 1 : -1
      setActive((a) => (flat.length ? (a + step + flat.length) % flat.length : 0))
    } else if (e.key === 'Enter' && open && flat[active]) {
      e.preventDefault()
      pick(flat[active])
    } else if (e.key === 'Escape' && open) {
      e.preventDefault()
      e.stopPropagation()
      e.nativeEvent.stopImmediatePropagation()
      setOpen(false)
      setQuery(null)
    }
  }

  let index = -1
  return (
    <div className="ui-combobox">
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && flat[active] ? optionId(active) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        aria-label={ariaLabel}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={query ?? value}
        onChange={(e) => {
          setQuery(e.target.value)
          setActive(0)
          setOpen(true)
          if (freeText) onChange(e.target.value)
        }}
        onKeyDown={onKey}
        onBlur={() => {
          setOpen(false)
          setQuery(null)
        }}
      />
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        className="ui-combobox-toggle"
        onMouseDown={(e) => {
          e.preventDefault()
          input.current?.focus()
          setQuery(null)
          setActive(0)
          setOpen((o) => !o)
        }}
      >
        <ChevronDown size={14} />
      </button>
      {open && (
        <div id={listId} role="listbox" className="ui-combobox-list" aria-label={ariaLabel}>
          {flat.length === 0 && <div className="ui-combobox-empty">{emptyText ?? '—'}</div>}
          {groups.map(([group, list]) => {
            const rows = list.map((o) => {
              index += 1
              const i = index
              return (
                <div
                  key={`${group}:${o.value}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={o.value === value}
                  className={`ui-combobox-option${i === active ? ' active' : ''}`}
                  onMouseDown={(e) => {
                    e.preventDefault()
                    pick(o)
                  }}
                  onMouseMove={() => setActive(i)}
                >
                  {o.label ?? o.value}
                </div>
              )
            })
            return group ? (
              <div key={group} role="group" aria-label={group}>
                <div className="ui-combobox-group" aria-hidden="true">
                  {group}
                </div>
                {rows}
              </div>
            ) : (
              rows
            )
          })}
        </div>
      )}
    </div>
  )
}
