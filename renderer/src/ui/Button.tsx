import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import './ui.css'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
export type ButtonSize = 'sm' | 'md'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  size?: ButtonSize
  /** A lucide icon drawn before the label. */
  icon?: LucideIcon
  /** Something drawn after the label (a chevron, a count). */
  trailing?: ReactNode
}

/** The app's button: one primary per area, secondary beside it, ghost in toolbars, danger for what destroys. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'secondary', size = 'md', icon: Icon, trailing, className, children, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={`btn btn-${variant} btn-${size}${className ? ` ${className}` : ''}`}
      {...rest}
    >
      {Icon && <Icon className="btn-icon" size={size === 'sm' ? 14 : 16} aria-hidden="true" />}
      {children !== undefined && children !== null && <span className="btn-label">{children}</span>}
      {trailing}
    </button>
  )
})

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** What it does: its accessible name and its tooltip. */
  label: string
  icon: LucideIcon
  variant?: Exclude<ButtonVariant, 'primary'>
  size?: ButtonSize
  /** A shortcut shown in the tooltip ("Ctrl+K"). */
  shortcut?: string
  /** A longer tooltip than the name, saying what follows ("Retry: a new reply beside this one"). */
  hint?: string
}

/** A button that is only an icon: named for screen readers and explained by a tooltip on hover and focus. */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { label, icon: Icon, variant = 'ghost', size = 'md', shortcut, hint, className, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      aria-label={label}
      data-tooltip={shortcut ? `${hint ?? label} (${shortcut})` : (hint ?? label)}
      className={`btn btn-${variant} btn-${size} btn-icon-only${className ? ` ${className}` : ''}`}
      {...rest}
    >
      <Icon size={size === 'sm' ? 14 : 16} aria-hidden="true" />
    </button>
  )
})
