import { useEffect, useId, useRef, type ReactNode } from 'react'
import './ui.css'

// Dialogs open over one another (a confirmation over an item's dialog, the command palette
// over anything): only the top one answers Escape and keeps the focus.
const stack: HTMLElement[] = []

/** Puts a modal layer of another kind (the command palette) on the stack; returns its removal. */
export function enterModalLayer(el: HTMLElement): () => void {
  stack.push(el)
  return () => void stack.splice(stack.indexOf(el), 1)
}

const FOCUSABLE =
  'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])'

/** Tab and Shift+Tab go round inside `box`. */
export function trapTab(e: KeyboardEvent | React.KeyboardEvent, box: HTMLElement): void {
  if (e.key !== 'Tab') return
  const all = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null)
  if (all.length === 0) return
  const first = all[0]!
  const last = all[all.length - 1]!
  if (e.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && (document.activeElement === last || !box.contains(document.activeElement))) {
    e.preventDefault()
    first.focus()
  }
}

/**
 * A modal dialog, labelled by its title: focus moves inside and stays there (Tab goes round),
 * Escape and the backdrop close it, and the focus goes back where it was when it closes.
 * A dialog whose first fields arrive later says when they have (`ready`): the focus goes to
 * the first field then, not to a later one there already, which scrolled the dialog past its top.
 */
export function Dialog({
  title,
  onClose,
  children,
  className,
  size = 'md',
  ready = true,
}: {
  title: string
  onClose: () => void
  children: ReactNode
  className?: string
  size?: 'sm' | 'md' | 'lg'
  ready?: boolean
}) {
  const box = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const close = useRef(onClose)
  useEffect(() => {
    close.current = onClose
  }, [onClose])
  useEffect(() => {
    const el = box.current!
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    stack.push(el)
    const onKey = (e: KeyboardEvent) => {
      if (stack.at(-1) !== el) return
      if (e.key === 'Escape') {
        e.preventDefault()
        close.current()
      } else trapTab(e, el)
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      stack.splice(stack.indexOf(el), 1)
      if (before?.isConnected) before.focus()
    }
  }, [])
  useEffect(() => {
    if (!ready) return
    box
      .current!.querySelector<HTMLElement>(
        '[data-autofocus], textarea, input, button.primary, button.btn-primary, button',
      )
      ?.focus()
  }, [ready])
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className={`dialog dialog-${size}${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={box}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  )
}
