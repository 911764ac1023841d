import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react'
import './ui.css'

interface ControlProps {
  id?: string
  'aria-describedby'?: string
  'aria-invalid'?: boolean
}

/**
 * A label over its control, then a hint and an error on lines of their own: they never run
 * together ("Pause memory for this personaDaily token budget"). The control gets the id, the
 * description and aria-invalid; `inline` puts a checkbox or switch before its label.
 */
export function Field({
  label,
  hint,
  error,
  inline,
  className,
  children,
}: {
  label: ReactNode
  hint?: ReactNode
  error?: ReactNode
  inline?: boolean
  className?: string
  children: ReactElement<ControlProps>
}) {
  const id = useId()
  const controlId = (isValidElement(children) && children.props.id) || `${id}-control`
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [children.props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined
  const control = cloneElement(children, {
    id: controlId,
    'aria-describedby': describedBy,
    ...(error ? { 'aria-invalid': true } : {}),
  })
  return (
    <div className={`ui-field${inline ? ' ui-field-inline' : ''}${className ? ` ${className}` : ''}`}>
      {inline && control}
      <label className="ui-field-label" htmlFor={controlId}>
        {label}
      </label>
      {!inline && control}
      {hint && (
        <p className="ui-field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="ui-field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
